import torch
import torch.nn as nn
import torch.nn.functional as F


class ZeroShotLocalizer(nn.Module):
    """Matches snippet features against class-name embeddings plus a learned background class."""

    def __init__(self, feat_dim=64, n_classes=5, temporal_scale=16):
        super().__init__()
        self.text_embeddings = nn.Parameter(torch.randn(n_classes, feat_dim) * 0.02)
        self.bg_embeddings = nn.Parameter(torch.empty(1, feat_dim))
        self.proj = nn.Conv1d(feat_dim, feat_dim, 3, padding=1)
        self.logit_scale = nn.Parameter(torch.tensor(2.0))
        self.temporal_scale = temporal_scale

    def forward(self, snippets):
        feats = F.relu(self.proj(snippets.transpose(1, 2))).transpose(1, 2)
        classes = torch.cat([self.text_embeddings, self.bg_embeddings], dim=0)
        sim = F.normalize(feats, dim=-1) @ F.normalize(classes, dim=-1).t()
        return sim * self.logit_scale.exp()


def train(model, steps=3):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(steps):
        snippets = torch.randn(2, model.temporal_scale, 64)
        labels = torch.randint(0, 6, (2, model.temporal_scale))
        loss = F.cross_entropy(model(snippets).transpose(1, 2), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    train(ZeroShotLocalizer())
