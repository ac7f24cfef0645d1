import torch
import torch.nn.functional as F

from unet import SegDiffUNet


class TrainLoop:
    def __init__(self, model: SegDiffUNet, data, lr=1e-4, steps=2, num_timesteps=50):
        self.model = model
        self.data = data
        self.steps = steps
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr)
        betas = torch.linspace(1e-4, 0.02, num_timesteps)
        self.alphas_cumprod = torch.cumprod(1 - betas, dim=0)
        self.num_timesteps = num_timesteps

    def q_sample(self, x_start, t, noise):
        a = self.alphas_cumprod[t].sqrt()[:, None, None, None]
        s = (1 - self.alphas_cumprod[t]).sqrt()[:, None, None, None]
        return a * x_start + s * noise

    def run_step(self, image, mask):
        t = torch.randint(0, self.num_timesteps, (image.size(0),))
        noise = torch.randn_like(mask)
        x_t = torch.cat([image, self.q_sample(mask, t, noise)], dim=1)
        pred_noise = self.model(x_t, t)
        loss = F.mse_loss(pred_noise, noise)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def run_loop(self):
        for step in range(self.steps):
            for image, mask in self.data:
                loss = self.run_step(image, mask)
            print(f"step {step} loss {loss:.4f}")
