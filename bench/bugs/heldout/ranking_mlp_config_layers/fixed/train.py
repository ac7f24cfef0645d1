import torch

from mlp import Mlp, MlpConfig


class EngagementModel(torch.nn.Module):
    def __init__(self, config: MlpConfig):
        super().__init__()
        self.feature_norm = torch.nn.LayerNorm(config.in_features)
        self.backbone = Mlp(config.in_features, config)

    def forward(self, features):
        return self.backbone(self.feature_norm(features)).squeeze(-1)


def main():
    torch.manual_seed(0)
    model = EngagementModel(MlpConfig())
    optimizer = torch.optim.Adagrad(model.parameters(), lr=0.05)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    for step in range(3):
        features = torch.randn(32, 16)
        engaged = (torch.rand(32) < 0.3).float()
        loss = loss_fn(model(features), engaged)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
