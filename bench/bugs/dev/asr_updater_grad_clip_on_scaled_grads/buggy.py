import torch
import torch.nn as nn


class Updater:
    """Wraps the optimizer step of one training run: mixed precision, gradient clipping, the optimizer."""

    def __init__(self, model, config, device):
        self.model = model
        self.config = config
        self.device = device
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config["learning_rate"])
        self.grad_scaler = torch.amp.GradScaler(device, init_scale=2.0**10)

    def update(self, loss):
        self.optimizer.zero_grad()
        self.grad_scaler.scale(loss).backward()
        clip = self.config.get("gradient_clip_global_norm")
        if clip:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=clip)
        self.grad_scaler.step(self.optimizer)
        self.grad_scaler.update()


class Conformerish(nn.Module):
    def __init__(self, n_in=10, d=24, n_out=12):
        super().__init__()
        self.frontend = nn.Linear(n_in, d)
        self.block = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 2 * d), nn.GLU(), nn.Dropout(0.1))
        self.out = nn.Linear(d, n_out)

    def forward(self, feats):
        h = self.frontend(feats)
        return self.out(h + self.block(h))


def run(config):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = Conformerish().to(device)
    updater = Updater(model, config, device)
    for step in range(config["steps"]):
        feats = torch.randn(4, 15, 10, device=device)
        labels = torch.randint(0, 12, (4, 15), device=device)
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            logits = model(feats)
            loss = nn.functional.cross_entropy(logits.transpose(1, 2), labels)
        updater.update(loss)
    return loss.item()


if __name__ == "__main__":
    print(run({"learning_rate": 1e-3, "gradient_clip_global_norm": 5.0, "steps": 3}))
