import torch
import torch.nn as nn
import torch.nn.functional as F


class MCDropoutClassifier(nn.Module):
    def __init__(self, n_in: int = 16, hidden: int = 64, n_classes: int = 3, p: float = 0.3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(p), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


class MCDropoutModel:
    """Active-learning wrapper: trains the classifier and scores unlabelled points by predictive entropy."""

    def __init__(self, n_estimators: int = 10):
        self.n_estimators = n_estimators
        self.current_model = None

    def train(self, x, y, epochs: int = 20):
        model = MCDropoutClassifier()
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        model.train()
        for _ in range(epochs):
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        self.current_model = model

    def __call__(self, x_pool: torch.Tensor) -> torch.Tensor:
        model = self.current_model
        # keep dropout on: each pass samples a different sub-network (Monte Carlo dropout)
        model.train()
        with torch.no_grad():
            predictions = torch.stack([model(x_pool).softmax(dim=-1) for _ in range(self.n_estimators)])
        return predictions


def entropy_scores(predictions: torch.Tensor) -> torch.Tensor:
    mean = predictions.mean(dim=0)
    return -(mean * mean.clamp_min(1e-12).log()).sum(dim=-1)


def main():
    torch.manual_seed(0)
    x = torch.randn(60, 16)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 1).long()
    pool = torch.randn(40, 16)
    mc = MCDropoutModel()
    mc.train(x, y)
    scores = entropy_scores(mc(pool))
    print("query indices:", scores.topk(8).indices.tolist())


if __name__ == "__main__":
    main()
