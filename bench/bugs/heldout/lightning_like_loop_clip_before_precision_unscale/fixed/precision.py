import torch


class NativeMixedPrecisionPlugin:
    """Owns the GradScaler: scales the loss for backward, unscales right before the optimizer step."""

    def __init__(self, device="cpu", dtype=torch.bfloat16):
        self.device, self.dtype = device, dtype
        self.scaler = torch.amp.GradScaler(device)

    def autocast(self):
        return torch.autocast(self.device, dtype=self.dtype)

    def backward(self, loss):
        self.scaler.scale(loss).backward()

    def pre_optimizer_step(self, optimizer):
        self.scaler.unscale_(optimizer)

    def optimizer_step(self, optimizer):
        self.pre_optimizer_step(optimizer)
        self.scaler.step(optimizer)
        self.scaler.update()
