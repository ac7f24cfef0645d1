import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import CompositionModel, backbone


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--feat-dim", type=int, default=64)
    p.add_argument("--n-attrs", type=int, default=6)
    p.add_argument("--n-objs", type=int, default=5)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--epochs", type=int, default=2)
    return p.parse_args([])


@torch.no_grad()
def cache_features(images, width):
    trunk = backbone(width).eval()
    feats = []
    for chunk in images.split(16):
        feats.append(trunk(chunk).flatten(1))
    return torch.cat(feats)


def main():
    args = parse_args()
    torch.manual_seed(0)
    images = torch.randn(48, 3, 32, 32)
    attrs = torch.randint(0, args.n_attrs, (48,))
    objs = torch.randint(0, args.n_objs, (48,))
    feats = cache_features(images, args.feat_dim)
    loader = DataLoader(TensorDataset(feats, attrs, objs), batch_size=args.batch_size, shuffle=True)

    model = CompositionModel(args.feat_dim, args.n_attrs, args.n_objs)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    for epoch in range(args.epochs):
        model.train()
        for x, attr, obj in loader:
            attr_logits, obj_logits = model(x)
            loss = F.cross_entropy(attr_logits, attr) + F.cross_entropy(obj_logits, obj)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
