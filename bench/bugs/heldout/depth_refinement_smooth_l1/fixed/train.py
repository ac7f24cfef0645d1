import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from model import DepthNet


class RGBDPairs(Dataset):
    def __init__(self, n=8, size=32):
        g = torch.Generator().manual_seed(3)
        self.rgb = torch.rand(n, 3, size, size, generator=g)
        self.depth = torch.rand(n, size, size, generator=g)

    def __len__(self):
        return len(self.rgb)

    def __getitem__(self, i):
        return {"rgb": self.rgb[i], "depth": self.depth[i]}


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, batch):
        self.model.train()
        pred_depth = self.model(batch["rgb"])
        depth = batch["depth"].unsqueeze(1)
        loss = F.smooth_l1_loss(pred_depth, depth, reduction="sum")
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(DepthNet())
    for epoch in range(2):
        for batch in DataLoader(RGBDPairs(), batch_size=2, shuffle=True):
            loss = trainer.step(batch)
        print(epoch, loss)
