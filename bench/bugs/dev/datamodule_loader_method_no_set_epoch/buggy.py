import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


class DataModule:
    def __init__(self, rank, world_size):
        self.rank, self.world_size = rank, world_size
        self.train_set = TensorDataset(torch.randn(40, 8), torch.randint(0, 2, (40,)))

    def train_dataloader(self):
        sampler = DistributedSampler(self.train_set, num_replicas=self.world_size, rank=self.rank, seed=13)
        return DataLoader(self.train_set, batch_size=5, sampler=sampler)


dm = DataModule(rank=0, world_size=2)
loader = dm.train_dataloader()
model = nn.Linear(8, 2)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    for x, y in loader:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item())
