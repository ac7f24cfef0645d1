import torch

PAD, BOS, EOS = "<pad>", "<bos>", "<eos>"
ALPHABET = list("CNOSFcnos()=#123[]+-@H")


class Vocab:
    def __init__(self):
        self.itos = [PAD, BOS, EOS] + ALPHABET
        self.stoi = {s: i for i, s in enumerate(self.itos)}
        self.pad_idx = self.stoi[PAD]

    def __len__(self):
        return len(self.itos)

    def encode(self, smiles: str):
        return [self.stoi[BOS]] + [self.stoi[c] for c in smiles if c in self.stoi] + [self.stoi[EOS]]

    def batch(self, smiles_list):
        rows = [self.encode(s) for s in smiles_list]
        longest = max(len(r) for r in rows)
        out = torch.full((len(rows), longest), self.pad_idx, dtype=torch.long)
        for i, r in enumerate(rows):
            out[i, : len(r)] = torch.tensor(r)
        return out
