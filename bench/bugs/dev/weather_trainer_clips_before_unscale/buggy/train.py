import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import CrossFormerLite

conf = {
    "trainer": {"epochs": 2, "grad_max_norm": 1.0, "amp": True, "learning_rate": 1e-3, "batch_size": 4},
    "data": {"variables": 4, "lat": 16, "lon": 32, "steps": 40},
}


class ERA5Steps(Dataset):
    def __init__(self, steps, variables, lat, lon, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.states = torch.randn(steps + 1, variables, lat, lon, generator=g).cumsum(0) * 0.1

    def __len__(self):
        return len(self.states) - 1

    def __getitem__(self, i):
        return self.states[i], self.states[i + 1]


class Trainer:
    def __init__(self, model, conf, device="cpu"):
        self.model = model
        self.conf = conf["trainer"]
        self.device = device
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=self.conf["learning_rate"])
        self.scaler = torch.amp.GradScaler(device, enabled=self.conf["amp"])

    def train_one_epoch(self, loader):
        self.model.train()
        losses = []
        for x, y in loader:
            with torch.autocast(self.device, dtype=torch.bfloat16, enabled=self.conf["amp"]):
                loss = F.mse_loss(self.model(x).float(), y)
            self.optimizer.zero_grad()
            self.scaler.scale(loss).backward()
            if self.conf["grad_max_norm"] > 0:
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=self.conf["grad_max_norm"])
            self.scaler.step(self.optimizer)
            self.scaler.update()
            losses.append(loss.item())
        return sum(losses) / len(losses)


def main():
    torch.manual_seed(0)
    d = conf["data"]
    loader = DataLoader(ERA5Steps(d["steps"], d["variables"], d["lat"], d["lon"]), batch_size=conf["trainer"]["batch_size"], shuffle=True)
    trainer = Trainer(CrossFormerLite(channels=d["variables"]), conf)
    for epoch in range(conf["trainer"]["epochs"]):
        print(f"epoch {epoch} train mse {trainer.train_one_epoch(loader):.4f}")


if __name__ == "__main__":
    main()
