import argparse
import random

import torch

from tagger import BiGRUTagger
from tagger.heads import PAD_LABEL

UPOS = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
        "PUNCT", "SCONJ", "SYM", "VERB", "X"]


def make_batch(batch_size: int, max_len: int, vocab: int) -> tuple[torch.Tensor, torch.Tensor]:
    tokens = torch.zeros(batch_size, max_len, dtype=torch.long)
    tags = torch.full((batch_size, max_len), PAD_LABEL, dtype=torch.long)
    for i in range(batch_size):
        n = random.randint(max_len // 2, max_len)
        tokens[i, :n] = torch.randint(1, vocab, (n,))
        tags[i, :n] = torch.randint(0, len(UPOS), (n,))
    return tokens, tags


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=300)
    parser.add_argument("--max-len", type=int, default=24)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args([])
    random.seed(1)
    torch.manual_seed(1)
    model = BiGRUTagger(args.vocab, len(UPOS))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for step in range(args.steps):
        tokens, tags = make_batch(8, args.max_len, args.vocab)
        logits = model(tokens)
        loss = model.head.loss(logits, tags)
        opt.zero_grad()
        loss.backward()
        opt.step()
        acc = (model.head.decode(logits) == tags).float().mean().item()
        print(f"step {step} loss {loss.item():.3f} acc {acc:.2f}")


if __name__ == "__main__":
    main()
