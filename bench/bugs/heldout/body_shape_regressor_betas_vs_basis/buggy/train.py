import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import ShapeConfig
from model import BetaRegressor, BodyShapeModel

log = logging.getLogger("shape_fit")


def make_loader(cfg: ShapeConfig) -> DataLoader:
    feats = torch.randn(16, cfg.feat_dim)
    verts = torch.randn(16, cfg.num_vertices, 3)
    return DataLoader(TensorDataset(feats, verts), batch_size=cfg.batch_size, shuffle=True)


def main() -> None:
    torch.manual_seed(0)
    cfg = ShapeConfig()
    body = BodyShapeModel(cfg)
    regressor = BetaRegressor(cfg)
    opt = torch.optim.Adam(regressor.parameters(), lr=cfg.lr)
    loader = make_loader(cfg)
    for epoch in range(cfg.epochs):
        total = 0.0
        for feats, verts in loader:
            betas = regressor(feats)
            pred = body(betas)
            loss = F.mse_loss(pred, verts)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        log.info("epoch %d mse %.4f", epoch, total / len(loader))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
