import argparse
import logging

import torch

from dataset import moving_squares
from models.vid_model import VidModel

log = logging.getLogger("vid")


def get_opt():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epoch", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=4)
    parser.add_argument("--input-size", type=int, default=16)
    parser.add_argument("--sample-size", type=int, default=6)
    parser.add_argument("--lr", type=float, default=1e-3)
    return parser.parse_args([])


def train(opt, model, clips, optimizer_netG, optimizer_netD):
    n_obs = opt.sample_size // 2
    for epoch in range(opt.epoch):
        for start in range(0, len(clips), opt.batch_size):
            batch = clips[start:start + opt.batch_size]
            losses = model.get_losses(batch[:, :n_obs], batch[:, n_obs:])

            # Train D
            optimizer_netD.zero_grad()
            losses["loss_netD"].backward()
            optimizer_netD.step()

            # Train G
            optimizer_netG.zero_grad()
            losses["loss_netG"].backward()
            optimizer_netG.step()

        log.info("epoch %d recon %.4f D %.4f", epoch, losses["recon"], losses["loss_netD"].item())


def main():
    opt = get_opt()
    torch.manual_seed(0)
    clips = moving_squares(8, opt.sample_size, opt.input_size, torch.Generator().manual_seed(0))
    model = VidModel()
    optimizer_netG = torch.optim.Adam(model.netG.parameters(), lr=opt.lr, betas=(0.5, 0.999))
    optimizer_netD = torch.optim.Adam(model.netD.parameters(), lr=opt.lr, betas=(0.5, 0.999))
    train(opt, model, clips, optimizer_netG, optimizer_netD)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
