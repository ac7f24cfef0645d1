import argparse

import torch
import torch.nn.functional as F

from charlm.model import CharGPT

TEXT = "the quick brown fox jumps over the lazy dog. " * 20


def get_batch(data, seq_len, batch_size, g):
    ix = torch.randint(len(data) - seq_len - 1, (batch_size,), generator=g)
    x = torch.stack([data[i:i + seq_len] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + seq_len] for i in ix])
    return x, y


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--seq-len", type=int, default=32)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--steps", type=int, default=3)
    args = p.parse_args(argv)

    torch.manual_seed(0)
    chars = sorted(set(TEXT))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in TEXT], dtype=torch.long)

    model = CharGPT(vocab_size=len(chars))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(0)
    for step in range(args.steps):
        xb, yb = get_batch(data, args.seq_len, args.batch_size, g)
        logits = model(xb)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), yb.view(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main([])
