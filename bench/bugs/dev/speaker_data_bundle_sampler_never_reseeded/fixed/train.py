import torch
import torch.nn as nn
import torch.nn.functional as F

from data import build_egs

egs_conf = {"n_chunks": 64, "frames": 50, "feat_dim": 24, "n_speakers": 8, "batch_size": 8}
model_conf = {"channels": 32, "embd_dim": 16}


class TDNN(nn.Module):
    def __init__(self, feat_dim, n_speakers, channels, embd_dim):
        super().__init__()
        self.frame = nn.Sequential(
            nn.Conv1d(feat_dim, channels, 5), nn.ReLU(), nn.BatchNorm1d(channels),
            nn.Conv1d(channels, channels, 3, dilation=2), nn.ReLU(), nn.BatchNorm1d(channels),
        )
        self.segment = nn.Linear(2 * channels, embd_dim)
        self.output = nn.Linear(embd_dim, n_speakers)

    def forward(self, x):
        h = self.frame(x)
        stats = torch.cat([h.mean(dim=2), h.std(dim=2)], dim=1)
        return self.output(F.relu(self.segment(stats)))


class SimpleTrainer:
    def __init__(self, model, egs, optimizer, epochs):
        self.model, self.egs, self.optimizer, self.epochs = model, egs, optimizer, epochs

    def run(self):
        for epoch in range(self.epochs):
            self.model.train()
            self.egs.train_sampler.set_epoch(epoch)
            for feats, targets in self.egs.train_loader:
                loss = F.cross_entropy(self.model(feats), targets)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch}: {self.egs.num_batch} batches, last loss {loss.item():.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    egs = build_egs(egs_conf)
    model = TDNN(egs_conf["feat_dim"], egs_conf["n_speakers"], **model_conf)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True)
    SimpleTrainer(model, egs, optimizer, epochs=3).run()
