import argparse
import logging

import torch
import torch.nn.functional as F

from model.net import MultiViewNet

log = logging.getLogger("mva")


def structure_loss(pred, mask):
    weit = 1 + 5 * torch.abs(F.avg_pool2d(mask, 7, stride=1, padding=3) - mask)
    wbce = F.binary_cross_entropy_with_logits(pred, mask, reduction="none")
    wbce = (weit * wbce).sum(dim=(2, 3)) / weit.sum(dim=(2, 3))
    prob = torch.sigmoid(pred)
    inter = (prob * mask * weit).sum(dim=(2, 3))
    union = ((prob + mask) * weit).sum(dim=(2, 3))
    wiou = 1 - (inter + 1) / (union - inter + 1)
    return (wbce + wiou).mean()


def synthetic_batch(batch_size, size, generator):
    masks = (torch.rand(batch_size, 1, size // 8, size // 8, generator=generator) > 0.6).float()
    masks = F.interpolate(masks, size=(size, size), mode="nearest")
    images = masks.repeat(1, 3, 1, 1) + 0.3 * torch.randn(batch_size, 3, size, size, generator=generator)
    return images, masks


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--iters", type=int, default=3)
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-5)
    args = parser.parse_args([])
    print("Generator Learning Rate: {}".format(args.lr))

    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    net = MultiViewNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=0.0)
    net.train()
    for it in range(args.iters):
        images, masks = synthetic_batch(2, args.size, gen)
        loss = structure_loss(net(images), masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.info("iter %d loss %.4f", it, loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
