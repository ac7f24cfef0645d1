import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler


class AudioMelDataset(Dataset):
    def __init__(self, n=16, frames=8, n_mels=10, hop=4, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.mels = torch.randn(n, n_mels, frames, generator=g)
        self.audio = torch.randn(n, frames * hop, generator=g)

    def __len__(self):
        return len(self.mels)

    def __getitem__(self, idx):
        return self.audio[idx], self.mels[idx]


class TinyGenerator(nn.Module):
    def __init__(self, n_mels=10, hop=4):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_mels, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.ConvTranspose1d(16, 1, hop, stride=hop))

    def forward(self, mel):
        return self.net(mel).squeeze(1)


class Trainer:
    def __init__(self, config, data_loader, sampler, model, optimizer):
        self.config = config
        self.data_loader = data_loader
        self.sampler = sampler
        self.model = model
        self.optimizer = optimizer
        self.steps, self.epochs = 0, 0
        self.finish_train = False

    def run(self):
        while not self.finish_train:
            self._train_epoch()

    def _train_epoch(self):
        for audio, mel in self.data_loader["train"]:
            loss = nn.functional.l1_loss(self.model(mel), audio)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.steps += 1
            if self.steps >= self.config["train_max_steps"]:
                self.finish_train = True
                break
        self.epochs += 1
        print(f"epoch {self.epochs}: steps {self.steps}, loss {loss.item():.4f}")


def main(rank=0, world_size=2):
    config = {"batch_size": 2, "train_max_steps": 12, "distributed": True}
    dataset = AudioMelDataset()
    sampler = {"train": DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True)}
    data_loader = {"train": DataLoader(dataset, batch_size=config["batch_size"], sampler=sampler["train"])}
    model = TinyGenerator()
    trainer = Trainer(config, data_loader, sampler, model, torch.optim.Adam(model.parameters(), lr=1e-3))
    trainer.run()


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
