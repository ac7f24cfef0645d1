import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class SetAttentionBlock(nn.Module):
    def __init__(self, dim, num_heads, dropout=0.0):
        super().__init__()
        self.attn = nn.MultiheadAttention(dim, num_heads, dropout=dropout, batch_first=True)
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, x, padding_mask):
        h, _ = self.attn(x, x, x, key_padding_mask=padding_mask)
        x = self.norm(x + h)
        return x + self.ff(x)


class PointSetClassifier(nn.Module):
    def __init__(self, in_dim=3, dim=32, num_heads=4, depth=2, n_classes=4):
        super().__init__()
        self.embed = nn.Linear(in_dim, dim)
        self.blocks = nn.ModuleList(SetAttentionBlock(dim, num_heads) for _ in range(depth))
        self.head = nn.Linear(dim, n_classes)

    def forward(self, points, padding_mask):
        x = self.embed(points)
        for block in self.blocks:
            x = block(x, padding_mask)
        keep = (~padding_mask).unsqueeze(-1).float()
        pooled = (x * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


def collate(clouds):
    points = pad_sequence(clouds, batch_first=True)
    lengths = torch.tensor([len(c) for c in clouds])
    padding_mask = torch.arange(points.size(1))[None, :] >= lengths[:, None]
    return points, padding_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    model = PointSetClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        clouds = [torch.randn(int(n), 3) for n in torch.randint(5, 9, (4,))]
        points, mask = collate(clouds)
        loss = nn.functional.cross_entropy(model(points, mask), torch.randint(0, 4, (4,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
