import argparse
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from anomaly import PatchCore, build_backbone

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("patchcore")


def make_split(n, size, anomalous=False, seed=0):
    g = torch.Generator().manual_seed(seed)
    images = 0.5 + 0.05 * torch.randn(n, 3, size, size, generator=g)
    if anomalous:
        images[:, :, size // 4 : size // 2, size // 4 : size // 2] += 0.8
    return TensorDataset(images, torch.full((n,), int(anomalous)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backbone", default="resnet18_small")
    ap.add_argument("--layers", nargs="+", default=["layer2", "layer3"])
    ap.add_argument("--imagesize", type=int, default=64)
    ap.add_argument("--batch-size", type=int, default=4)
    args = ap.parse_args()
    torch.manual_seed(0)

    train_loader = DataLoader(make_split(8, args.imagesize), batch_size=args.batch_size)
    model = PatchCore(build_backbone(args.backbone), layers=args.layers)
    model.fit(train_loader)

    good = make_split(4, args.imagesize, seed=1).tensors[0]
    bad = make_split(4, args.imagesize, anomalous=True, seed=2).tensors[0]
    scores_good, _ = model.predict(good)
    scores_bad, _ = model.predict(bad)
    log.info("mean score good %.3f anomalous %.3f", scores_good.mean(), scores_bad.mean())


if __name__ == "__main__":
    main()
