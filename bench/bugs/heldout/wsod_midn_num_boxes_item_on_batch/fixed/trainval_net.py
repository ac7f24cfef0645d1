import argparse

import torch

from oicr.model import OICR


def parse_args():
    parser = argparse.ArgumentParser(description="Train an OICR network")
    parser.add_argument("--bs", dest="batch_size", type=int, default=2)
    parser.add_argument("--nw", dest="num_workers", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args([])


def synthetic_minibatch(batch_size, num_classes, max_rois, generator):
    im_data = torch.rand(batch_size, 3, 32, 32, generator=generator)
    rois = torch.rand(batch_size, max_rois, 4, generator=generator)
    labels = (torch.rand(batch_size, num_classes, generator=generator) < 0.3).float()
    counts = torch.randint(max_rois // 2, max_rois + 1, (batch_size,), generator=generator)
    num_boxes = torch.stack([counts, torch.full_like(counts, 32), torch.full_like(counts, 32)], dim=1)
    return im_data, rois, labels, num_boxes


if __name__ == "__main__":
    args = parse_args()
    torch.manual_seed(0)
    num_classes = 5
    model = OICR(num_classes)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    g = torch.Generator().manual_seed(0)
    for epoch in range(args.epochs):
        model.train()
        for step in range(args.iters):
            im_data, im_rois, labels, num_boxes = synthetic_minibatch(args.batch_size, num_classes, 20, g)
            midn_loss, refine_loss, cls_prob = model(im_data, im_rois, labels, num_boxes)
            loss = midn_loss + refine_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"[epoch {epoch}][iter {step}] loss {loss.item():.4f}")
