import logging

import torch
import torch.nn.functional as F

from data import corrupt_tails, sample_triples
from model import TESTING, TRAINING, VALIDATION, InductiveDistMult

N_ENTITIES = {TRAINING: 40, VALIDATION: 20, TESTING: 20}
N_RELATIONS = 5


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = InductiveDistMult(N_ENTITIES, N_RELATIONS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_triples = sample_triples(N_ENTITIES[TRAINING], N_RELATIONS, 128, g)
    for epoch in range(3):
        model.mode = TRAINING
        for batch in train_triples.split(32):
            pos = model(batch)
            neg = model(corrupt_tails(batch, N_ENTITIES[TRAINING], g))
            loss = F.softplus(-pos).mean() + F.softplus(neg).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logging.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
