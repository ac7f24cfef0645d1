"""Adaptive-depth matcher (LightGlue-style): after each layer a token-confidence head predicts whether a keypoint's
match is already final; at inference its probabilities decide early stopping, in training it is fit with BCE."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenConfidence(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.token = nn.Sequential(nn.Linear(dim, 1), nn.Sigmoid())
        self.loss_fn = nn.BCEWithLogitsLoss(reduction="none")

    def forward(self, desc0, desc1):
        """Confidence of each token, as probabilities."""
        return self.token(desc0.detach()).squeeze(-1), self.token(desc1.detach()).squeeze(-1)

    def loss(self, desc0, desc1, la_now, la_final):
        logit0 = self.token[0](desc0.detach()).squeeze(-1)
        logit1 = self.token[0](desc1.detach()).squeeze(-1)
        la_now, la_final = la_now.detach(), la_final.detach()
        correct0 = la_final[:, :-1, :].max(-1).indices == la_now[:, :-1, :].max(-1).indices
        correct1 = la_final[:, :, :-1].max(-2).indices == la_now[:, :, :-1].max(-2).indices
        return (self.loss_fn(logit0, correct0.float()).mean(-1) + self.loss_fn(logit1, correct1.float()).mean(-1)) / 2.0


class MatchAssignment(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.matchability = nn.Linear(dim, 1)

    def forward(self, desc0, desc1):
        sim = torch.einsum("bmd,bnd->bmn", self.proj(desc0), self.proj(desc1)) / desc0.size(-1) ** 0.5
        z0, z1 = self.matchability(desc0), self.matchability(desc1)
        scores = F.log_softmax(sim, 2) + F.log_softmax(sim, 1)
        b, m, n = sim.shape
        out = sim.new_full((b, m + 1, n + 1), 0)
        out[:, :m, :n] = scores + F.logsigmoid(z0) + F.logsigmoid(z1).transpose(1, 2)
        out[:, :-1, -1] = F.logsigmoid(-z0.squeeze(-1))
        out[:, -1, :-1] = F.logsigmoid(-z1.squeeze(-1))
        return out


class TinyGlue(nn.Module):
    def __init__(self, dim=32, n_layers=3):
        super().__init__()
        self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 4, dim * 2, batch_first=True)
                                    for _ in range(n_layers))
        self.log_assignment = nn.ModuleList(MatchAssignment(dim) for _ in range(n_layers))
        self.token_confidence = nn.ModuleList(TokenConfidence(dim) for _ in range(n_layers - 1))

    def forward(self, desc0, desc1):
        las, descs = [], []
        for layer, assign in zip(self.layers, self.log_assignment):
            desc0, desc1 = layer(desc0), layer(desc1)
            las.append(assign(desc0, desc1))
            descs.append((desc0, desc1))
        return las, descs

    def loss(self, las, descs, gt_assignment):
        nll = sum(-(la * gt_assignment).sum((1, 2)).mean() / gt_assignment.sum((1, 2)).mean() for la in las)
        conf = sum(tc.loss(d0, d1, la, las[-1]).mean()
                   for tc, (d0, d1), la in zip(self.token_confidence, descs[:-1], las[:-1]))
        return nll / len(las) + conf


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = TinyGlue()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    for it in range(3):
        desc0 = torch.randn(2, 9, 32, generator=g)
        desc1 = torch.randn(2, 8, 32, generator=g)
        gt = torch.zeros(2, 10, 9)
        gt[:, torch.arange(8), torch.arange(8)] = 1
        gt[:, 8, 8] = 1
        las, descs = model(desc0, desc1)
        loss = model.loss(las, descs, gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            conf0, _ = model.token_confidence[0](*descs[0])
        print(f"it {it} loss {loss.item():.3f} mean confidence {conf0.mean().item():.3f}")


if __name__ == "__main__":
    main()
