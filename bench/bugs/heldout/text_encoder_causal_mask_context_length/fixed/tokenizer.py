import torch

SOT, EOT = 198, 199


def tokenize(texts, max_len):
    """Toy tokenizer: characters to ids, SOT/EOT framed, padded to the longest text in the batch (at most max_len)."""
    rows = [[SOT] + [ord(c) % 190 + 1 for c in t][: max_len - 2] + [EOT] for t in texts]
    width = max(len(r) for r in rows)
    out = torch.zeros(len(rows), width, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r)
    return out
