"""Image captioning (show-and-tell style) with gradient accumulation over small micro-batches."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

PAD, BOS, EOS = 0, 1, 2


class CaptionSet(Dataset):
    def __init__(self, n=48, feat_dim=128, vocab=200, max_len=12):
        g = torch.Generator().manual_seed(0)
        self.feats = torch.randn(n, feat_dim, generator=g)
        self.caps = torch.full((n, max_len), PAD)
        for i in range(n):
            length = int(torch.randint(4, max_len - 1, (1,), generator=g))
            self.caps[i, 0] = BOS
            self.caps[i, 1:length] = torch.randint(3, vocab, (length - 1,), generator=g)
            self.caps[i, length] = EOS

    def __len__(self):
        return len(self.feats)

    def __getitem__(self, i):
        return self.feats[i], self.caps[i]


class ShowTell(nn.Module):
    def __init__(self, feat_dim=128, vocab=200, emb=64, hidden=128):
        super().__init__()
        self.init_h = nn.Linear(feat_dim, hidden)
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, feats, captions):
        h0 = torch.tanh(self.init_h(feats)).unsqueeze(0)
        states, _ = self.lstm(self.embed(captions), (h0, torch.zeros_like(h0)))
        return self.out(states)


def train(model, loader, optimizer, accum_steps=4, epochs=2):
    for epoch in range(epochs):
        model.train()
        for step, (feats, caps) in enumerate(loader):
            optimizer.zero_grad()
            logits = model(feats, caps[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), caps[:, 1:].reshape(-1), ignore_index=PAD)
            (loss / accum_steps).backward()
            if (step + 1) % accum_steps == 0:
                nn.utils.clip_grad_norm_(model.parameters(), 5.0)
                optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.3f}")


if __name__ == "__main__":
    model = ShowTell()
    loader = DataLoader(CaptionSet(), batch_size=4, shuffle=True)
    train(model, loader, torch.optim.Adam(model.parameters(), lr=1e-3))
