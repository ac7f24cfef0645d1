import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Evaluator(nn.Module):
    """Regresses a judge's score from the clip features of a dive."""

    def __init__(self, in_dim: int = 64, hidden: int = 32) -> None:
        super().__init__()
        self.layer1 = nn.Linear(in_dim, hidden)
        self.layer2 = nn.Linear(hidden, hidden)
        self.layer3 = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.layer1(x))
        x = torch.relu(self.layer2(x))
        return self.layer3(x)


def run_split(evaluator: nn.Module, loader: DataLoader, criterion: nn.Module, optimizer=None) -> float:
    training = optimizer is not None
    evaluator.train(training)
    pred_scores, true_scores = [], []
    with torch.set_grad_enabled(training):
        for clip_feats, final_score in loader:
            preds = evaluator(clip_feats.mean(1))
            pred_scores.append(preds.detach())
            true_scores.append(final_score)
            if training:
                loss = criterion(preds.squeeze(1), final_score)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
    pred_scores = torch.cat(pred_scores).squeeze(1)
    true_scores = torch.cat(true_scores)
    return (pred_scores - true_scores).abs().mean().item()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    feats, scores = torch.randn(40, 8, 64), torch.rand(40) * 100
    train_loader = DataLoader(TensorDataset(feats[:32], scores[:32]), batch_size=8, shuffle=True)
    test_loader = DataLoader(TensorDataset(feats[32:], scores[32:]), batch_size=8)
    evaluator = Evaluator()
    optimizer = torch.optim.Adam(evaluator.parameters(), lr=args.lr)
    criterion = nn.MSELoss()
    for epoch in range(args.epochs):
        train_mae = run_split(evaluator, train_loader, criterion, optimizer)
        test_mae = run_split(evaluator, test_loader, criterion)
        print(f"epoch {epoch}: train MAE {train_mae:.2f} test MAE {test_mae:.2f}")
