import argparse

import torch

from misc import pyutils
from misc.losses import multilabel_loss, recam_ce_loss
from net import CAMNet


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--recam_loss_weight", type=float, default=0.7)
    parser.add_argument("--recam_num_epoches", type=int, default=2)
    parser.add_argument("--print_every", type=int, default=2)
    return parser.parse_args([])


def run(args):
    torch.manual_seed(0)
    model = CAMNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    avg_meter = pyutils.AverageMeter("loss_cls", "loss_ce")
    images = torch.randn(16, 3, 12, 12)
    label_vec = (torch.rand(16, 4) > 0.6).float()
    label_vec[:, 0] = 1.0
    step = 0
    for ep in range(args.recam_num_epoches):
        for i in range(0, 16, 4):
            x, y = images[i:i + 4], label_vec[i:i + 4]
            logits, recam_logits, target = model(x, y)
            loss_cls = multilabel_loss(logits, y)
            loss_ce = recam_ce_loss(recam_logits, target, args.recam_loss_weight)
            loss = loss_cls + loss_ce.mean()
            avg_meter.add({"loss_cls": loss_cls.item(), "loss_ce": loss_ce.item()})
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if step % args.print_every == 0:
                print(f"step {step} loss_cls {avg_meter.pop('loss_cls'):.4f} loss_ce {avg_meter.pop('loss_ce'):.4f}")


if __name__ == "__main__":
    run(get_args())
