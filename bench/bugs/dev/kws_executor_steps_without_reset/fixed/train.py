import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

from executor import Executor

CONFIG = {
    "feat_dim": 20,
    "hidden": 32,
    "num_keywords": 3,
    "optim_conf": {"lr": 1e-3, "weight_decay": 1e-4},
    "training_conf": {"grad_clip": 5.0, "log_interval": 5, "max_epoch": 2},
}


class FbankDataset(Dataset):
    def __init__(self, n, feat_dim, num_keywords, max_frames=40, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.lengths = torch.randint(20, max_frames + 1, (n,), generator=g)
        self.feats = torch.randn(n, max_frames, feat_dim, generator=g)
        self.labels = torch.randint(0, num_keywords, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.feats[i], self.labels[i], self.lengths[i]


class KWSModel(nn.Module):
    def __init__(self, feat_dim, hidden, num_keywords):
        super().__init__()
        self.preprocessing = nn.Linear(feat_dim, hidden)
        self.backbone = nn.GRU(hidden, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, num_keywords)

    def forward(self, feats, lengths):
        out, _ = self.backbone(torch.relu(self.preprocessing(feats)))
        mask = (torch.arange(out.size(1))[None, :] < lengths[:, None]).unsqueeze(-1)
        pooled = (out * mask).sum(1) / lengths[:, None]
        return self.classifier(pooled)


def main():
    torch.manual_seed(0)
    device = torch.device("cpu")
    model = KWSModel(CONFIG["feat_dim"], CONFIG["hidden"], CONFIG["num_keywords"]).to(device)
    optimizer = torch.optim.Adam(model.parameters(), **CONFIG["optim_conf"])
    train_loader = DataLoader(FbankDataset(48, CONFIG["feat_dim"], CONFIG["num_keywords"]), batch_size=8, shuffle=True)
    cv_loader = DataLoader(FbankDataset(16, CONFIG["feat_dim"], CONFIG["num_keywords"], seed=1), batch_size=8)
    executor = Executor()
    for epoch in range(CONFIG["training_conf"]["max_epoch"]):
        executor.train(model, optimizer, train_loader, device, CONFIG["training_conf"])
        print(f"epoch {epoch} cv loss {executor.cv(model, cv_loader, device):.4f}")


if __name__ == "__main__":
    main()
