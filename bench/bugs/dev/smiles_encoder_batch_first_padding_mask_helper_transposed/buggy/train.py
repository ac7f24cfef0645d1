import argparse
import logging
import random

import torch
import torch.nn.functional as F

from molgen.model import EncoderConfig, SmilesPropertyModel
from molgen.vocab import ALPHABET, Vocab

logger = logging.getLogger("train")


def random_smiles(rnd: random.Random) -> str:
    return "".join(rnd.choice("CCCCNOc(=)") for _ in range(rnd.randint(5, 14)))


def toy_property(smiles: str) -> float:
    return 0.3 * smiles.count("C") - 0.5 * smiles.count("O") - 0.4 * smiles.count("N") + 0.1 * len(smiles)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--batch-size", type=int, default=6)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(5)
    rnd = random.Random(5)

    vocab = Vocab()
    cfg = EncoderConfig(vocab_size=len(vocab))
    model = SmilesPropertyModel(cfg, pad_idx=vocab.pad_idx)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(args.steps):
        smiles = [random_smiles(rnd) for _ in range(args.batch_size)]
        tokens = vocab.batch(smiles)
        target = torch.tensor([toy_property(s) for s in smiles])
        pred = model(tokens)
        loss = F.mse_loss(pred, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 4 == 0:
            logger.info("step %d loss %.4f (alphabet %d)", step, loss.item(), len(ALPHABET))


if __name__ == "__main__":
    main()
