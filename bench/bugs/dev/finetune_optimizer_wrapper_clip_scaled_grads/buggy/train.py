import argparse
import logging

import torch
import torch.nn.functional as F

from config import TrainConfig
from model import TinyDenoiser
from optimizer_helper import FinetuneOptimizer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clip_grad_norm", type=float, default=1.0)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = TrainConfig(clip_grad_norm=args.clip_grad_norm)
    model = TinyDenoiser()
    ed_optimizer = FinetuneOptimizer(model, cfg)
    latents = torch.randn(32, 4, 8, 8)
    global_step = 0
    for epoch in range(cfg.max_epochs):
        for step, i in enumerate(range(0, len(latents), cfg.batch_size)):
            x0 = latents[i:i + cfg.batch_size]
            t = torch.randint(0, 1000, (len(x0),))
            noise = torch.randn_like(x0)
            noisy = x0 + noise * (t[:, None, None, None] / 1000.0)
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=cfg.amp):
                pred = model(noisy, t)
            loss = F.mse_loss(pred.float(), noise)
            ed_optimizer.step(loss, step, global_step)
            global_step += 1
        logging.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
