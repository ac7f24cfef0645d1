"""Fine-tune a tiny causal LM with gradient accumulation: the reset sits with the step, under the
accumulation boundary, and the last partial window is flushed at the end of the epoch."""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=50, dim=32, ctx=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.lm_head = nn.Linear(dim, vocab)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(ctx))

    def forward(self, ids):
        t = ids.shape[1]
        h = self.tok(ids) + self.pos(torch.arange(t, device=ids.device))
        return self.lm_head(self.blocks(h, mask=self.mask[:t, :t], is_causal=True))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--grad-accum", type=int, default=4)
    parser.add_argument("--micro-batch", type=int, default=2)
    parser.add_argument("--lr", type=float, default=3e-4)
    args = parser.parse_args([])
    torch.manual_seed(0)
    data = torch.randint(0, 50, (22, 17))
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 3))
    batches = list(data.split(args.micro_batch))
    optimizer.zero_grad()
    for step, batch in enumerate(batches):
        inputs, labels = batch[:, :-1], batch[:, 1:]
        logits = model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1)) / args.grad_accum
        loss.backward()
        if (step + 1) % args.grad_accum == 0 or step + 1 == len(batches):
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            print(f"update at micro-step {step} ppl {math.exp(loss.item() * args.grad_accum):.2f}")


if __name__ == "__main__":
    main()
