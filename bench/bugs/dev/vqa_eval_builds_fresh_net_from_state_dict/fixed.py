import torch
import torch.nn as nn
import torch.nn.functional as F


class Cfgs:
    hidden = 24
    answers = 5
    dropout = 0.1
    lr = 1e-3
    epochs = 3
    batch = 4


class MCAN(nn.Module):
    def __init__(self, cfgs, token_size=30, img_feat=10):
        super().__init__()
        self.embedding = nn.Embedding(token_size, cfgs.hidden)
        self.lstm = nn.LSTM(cfgs.hidden, cfgs.hidden, batch_first=True)
        self.img_proj = nn.Linear(img_feat, cfgs.hidden)
        self.attn = nn.MultiheadAttention(cfgs.hidden, 2, dropout=cfgs.dropout, batch_first=True)
        self.classifier = nn.Sequential(nn.LayerNorm(cfgs.hidden), nn.Dropout(cfgs.dropout), nn.Linear(cfgs.hidden, cfgs.answers))

    def forward(self, img, ques):
        lang, _ = self.lstm(self.embedding(ques))
        fused, _ = self.attn(lang, self.img_proj(img), self.img_proj(img))
        return self.classifier(fused.mean(1))


def batches(cfgs, n=4):
    for _ in range(n):
        yield torch.randn(cfgs.batch, 6, 10), torch.randint(0, 30, (cfgs.batch, 7)), torch.randint(0, cfgs.answers, (cfgs.batch,))


def evaluate(cfgs, state_dict):
    net = MCAN(cfgs)
    net.load_state_dict(state_dict)
    net.eval()
    correct = total = 0
    with torch.no_grad():
        for img, ques, ans in batches(cfgs, 2):
            correct += (net(img, ques).argmax(-1) == ans).sum().item()
            total += ans.numel()
    return correct / total


def train(cfgs):
    net = MCAN(cfgs)
    net.train()
    optim = torch.optim.Adam(net.parameters(), lr=cfgs.lr)
    for epoch in range(cfgs.epochs):
        for img, ques, ans in batches(cfgs):
            optim.zero_grad()
            loss = F.cross_entropy(net(img, ques), ans)
            loss.backward()
            optim.step()
        print(f"epoch {epoch}: loss {loss.item():.3f} val acc {evaluate(cfgs, net.state_dict()):.2f}")


train(Cfgs())
