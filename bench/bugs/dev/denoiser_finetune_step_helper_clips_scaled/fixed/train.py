import argparse

import torch
import torch.nn.functional as F

from denoiser import TinyDenoiser
from trainer_utils.optim import build_optimizer, optimizer_step


def parse_args():
    p = argparse.ArgumentParser(description="fine-tune a latent denoiser")
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--batch_size", type=int, default=8)
    p.add_argument("--clip_grad_norm", type=float, default=1.0)
    p.add_argument("--fp16", action="store_true", default=True)
    p.add_argument("--num_timesteps", type=int, default=1000)
    return p.parse_args([])


def main():
    args = parse_args()
    torch.manual_seed(42)
    device = "cpu"
    unet = TinyDenoiser().to(device)
    optimizer = build_optimizer(unet.parameters(), args.lr)
    scaler = torch.amp.GradScaler(device, enabled=args.fp16)
    betas = torch.linspace(1e-4, 0.02, args.num_timesteps)
    alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    for step in range(args.steps):
        latents = torch.randn(args.batch_size, 4, 8, 8)
        noise = torch.randn_like(latents)
        t = torch.randint(0, args.num_timesteps, (args.batch_size,))
        a = alphas_cumprod[t].sqrt()[:, None, None, None]
        s = (1 - alphas_cumprod[t]).sqrt()[:, None, None, None]
        noisy = a * latents + s * noise
        with torch.autocast(device, dtype=torch.bfloat16, enabled=args.fp16):
            noise_pred = unet(noisy, t)
        loss = F.mse_loss(noise_pred.float(), noise)
        optimizer_step(loss, unet.parameters(), optimizer, scaler, args.clip_grad_norm)
        print(f"step {step} loss {loss.item():.4f} scale {scaler.get_scale():.0f}")


if __name__ == "__main__":
    main()
