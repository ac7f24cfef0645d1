import logging

import numpy as np
import torch
from torch import nn

from config import TrainArgs
from featurize import StandardScaler, descriptors, smiles_corpus
from model import DescriptorFFN

logger = logging.getLogger("molprop")


class MoleculeTrainer:
    def __init__(self, model, args):
        self.args = args
        self.device = torch.device(args.device)
        self.model = model.to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=args.lr)
        self.loss_func = nn.MSELoss()

    def fit(self, features, targets):
        x = torch.from_numpy(features).to(self.device)
        y = torch.from_numpy(targets).float().to(self.device)
        n = len(x)
        for epoch in range(self.args.epochs):
            self.model.train()
            order = torch.randperm(n)
            for start in range(0, n, self.args.batch_size):
                idx = order[start:start + self.args.batch_size]
                loss = self.loss_func(self.model(x[idx]), y[idx])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            logger.info("epoch %d mse %.4f", epoch, loss.item())


def main():
    logging.basicConfig(level=logging.INFO)
    args = TrainArgs()
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    smiles = smiles_corpus(args.n_molecules, args.seed)
    raw = descriptors(smiles, args.n_descriptors)
    scaler = StandardScaler().fit(raw)
    features = scaler.transform(raw)
    targets = (features[:, :1] * 0.7 - features[:, 5:6] * 0.2).astype(np.float32)
    logger.info("featurized %d molecules into %d descriptors", *features.shape)

    if args.device == "mps" and not torch.backends.mps.is_available():
        logger.warning("MPS backend not available on this machine; skipping training")
        return
    model = DescriptorFFN(args.n_descriptors, args.hidden_size, args.depth, args.dropout, len(args.targets))
    MoleculeTrainer(model, args).fit(features, targets)


if __name__ == "__main__":
    main()
