import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import MODEL_CONFIG, TRAIN_CONFIG
from model import MMoE


def synthetic_impressions(n, cfg):
    dense = torch.randn(n, cfg["n_dense"])
    sparse = torch.stack([torch.randint(0, c, (n,)) for c in cfg["sparse_cardinalities"]], dim=1)
    click = (dense[:, 0] + 0.1 * sparse[:, 0] > 2.5).float()
    convert = click * (dense[:, 1] > 0).float()
    return TensorDataset(dense, sparse, click, convert)


def main():
    loader = DataLoader(synthetic_impressions(TRAIN_CONFIG["n_samples"], MODEL_CONFIG),
                        batch_size=TRAIN_CONFIG["batch_size"], shuffle=True)
    model = MMoE(MODEL_CONFIG)
    optimizer = torch.optim.Adam(model.parameters(), lr=TRAIN_CONFIG["lr"])
    for epoch in range(TRAIN_CONFIG["epochs"]):
        model.train()
        for dense, sparse, click, convert in loader:
            ctr_logit, cvr_logit = model(dense, sparse)
            loss = F.binary_cross_entropy_with_logits(ctr_logit, click) + \
                F.binary_cross_entropy_with_logits(cvr_logit, convert)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
