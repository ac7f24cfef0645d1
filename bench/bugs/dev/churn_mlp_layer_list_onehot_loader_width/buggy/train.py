import torch
import torch.nn as nn

from config import EPOCHS, MODEL_CFG
from data import make_loader
from model import ChurnMLP


def main() -> None:
    torch.manual_seed(0)
    loader = make_loader()
    model = ChurnMLP(MODEL_CFG)
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(EPOCHS):
        model.train()
        losses = []
        for features, churned in loader:
            logits = model(features)
            loss = loss_fn(logits, churned)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        print(f"epoch {epoch} bce {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    main()
