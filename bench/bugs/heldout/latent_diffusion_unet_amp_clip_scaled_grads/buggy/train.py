import torch
import torch.nn.functional as F

from unet import TinyUNet


class DDPMTrainer:
    def __init__(self, model: TinyUNet, timesteps=100, lr=2e-4, max_grad_norm=1.0):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.model = model.to(self.device)
        self.timesteps = timesteps
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.alpha_bar = torch.cumprod(1 - betas, dim=0).to(self.device)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
        self.scaler = torch.amp.GradScaler(self.device)
        self.amp_dtype = torch.float16 if self.device == "cuda" else torch.bfloat16
        self.max_grad_norm = max_grad_norm

    def train_step(self, latents):
        latents = latents.to(self.device)
        t = torch.randint(0, self.timesteps, (len(latents),), device=self.device)
        noise = torch.randn_like(latents)
        ab = self.alpha_bar[t][:, None, None, None]
        noisy = ab.sqrt() * latents + (1 - ab).sqrt() * noise
        with torch.autocast(device_type=self.device, dtype=self.amp_dtype):
            pred = self.model(noisy, t)
            loss = F.mse_loss(pred.float(), noise)
        self.optimizer.zero_grad(set_to_none=True)
        self.scaler.scale(loss).backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.max_grad_norm)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item(), float(grad_norm)


if __name__ == "__main__":
    trainer = DDPMTrainer(TinyUNet())
    latents = torch.randn(64, 4, 16, 16)
    for step in range(8):
        batch = latents[torch.randint(0, len(latents), (8,))]
        loss, norm = trainer.train_step(batch)
        print(f"step {step} loss {loss:.4f} grad norm {norm:.2f}")
