import torch


class ActivationMonitor:
    """Records the mean posterior scale every time the encoder runs (forward hook)."""

    def __init__(self, module: torch.nn.Module):
        self.scales: list[float] = []
        self.handle = module.register_forward_hook(self.hook)

    def hook(self, module, inputs, output):
        _, log_scale = output
        self.scales.append(log_scale.detach().exp().mean().item())
