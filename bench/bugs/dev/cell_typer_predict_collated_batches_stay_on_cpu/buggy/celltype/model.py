import logging

import numpy as np
import torch
import torch.nn.functional as F

from celltype.data import CellDataset, make_loader
from celltype.module import TyperModule

log = logging.getLogger(__name__)


class CellTyper:
    """Fits a classifier of cell populations from marker expression and batch covariates."""

    def __init__(self, n_markers, n_covariates, n_types, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.module = TyperModule(n_markers, n_covariates, n_types)

    def fit(self, expression, covariates, labels, epochs=2, batch_size=16, lr=1e-3):
        self.module.to(self.device)
        optimizer = torch.optim.Adam(self.module.parameters(), lr=lr)
        loader = make_loader(CellDataset(expression, covariates, labels), batch_size, shuffle=True)
        self.module.train()
        for epoch in range(epochs):
            for batch in loader:
                batch = {k: v.to(self.device) for k, v in batch.items()}
                loss = F.cross_entropy(self.module(batch["x"], batch["cov"]), batch["y"])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            log.info("epoch %d loss %.4f", epoch, loss.item())
        return self

    @torch.no_grad()
    def predict(self, expression, covariates, batch_size=64):
        self.module.eval()
        loader = make_loader(CellDataset(expression, covariates), batch_size)
        preds = []
        for batch in loader:
            logits = self.module(batch["x"], batch["cov"])
            preds.append(logits.argmax(dim=1).cpu().numpy())
        return np.concatenate(preds)
