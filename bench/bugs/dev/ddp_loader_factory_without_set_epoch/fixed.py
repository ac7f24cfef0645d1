import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


def build_loader(dataset, rank, world_size, batch_size=8):
    sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)
    return DataLoader(dataset, batch_size=batch_size, sampler=sampler, drop_last=True)


def main(rank=0, world_size=2, epochs=3):
    dataset = TensorDataset(torch.randn(64, 10), torch.randn(64, 1))
    loader = build_loader(dataset, rank, world_size)
    model = nn.Linear(10, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for epoch in range(epochs):
        loader.sampler.set_epoch(epoch)
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"rank {rank} epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
