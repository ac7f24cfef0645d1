import logging

import torch

log = logging.getLogger(__name__)


class CodecTrainer:
    def __init__(self, model, losses, weights, lr):
        self.model = model
        self.losses = losses
        self.weights = weights
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.8, 0.99))
        self.global_step = 0

    def compute_losses(self, recon, audio):
        output = {name: fn(recon, audio) for name, fn in self.losses.items()}
        output["loss"] = sum(self.weights[name] * output[name] for name in self.losses)
        return output

    def train_step(self, audio):
        self.model.train()
        recon = self.model(audio)
        output = self.compute_losses(recon, audio)

        self.optimizer.zero_grad()
        output["loss"].backward()
        grad_norm = torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1e3)
        self.optimizer.step()
        self.global_step += 1

        output = {k: v.detach() for k, v in output.items()}
        output["grad_norm"] = grad_norm
        return output
