import torch
import torch.nn.functional as F

from data import load_speed_windows
from stgnn.graph import normalized_adjacency
from stgnn.model import TrafficForecaster


def main() -> None:
    torch.manual_seed(0)
    x, y, adj = load_speed_windows()
    support = normalized_adjacency(adj)
    model = TrafficForecaster(in_features=x.size(1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    for epoch in range(2):
        for start in range(0, len(x), 8):
            xb, yb = x[start:start + 8], y[start:start + 8]
            pred = model(xb, support)
            loss = F.l1_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            opt.step()
        print(f"epoch {epoch} mae {loss.item() * 70:.2f} km/h")


if __name__ == "__main__":
    main()
