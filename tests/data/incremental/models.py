import torch
import torch.nn as nn
import torch.nn.functional as F

D = 16
H = 4
W = torch.randn(16, 8)
x = torch.randn(8, 32)
B, T = x.shape


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(D, H)
        self.out = nn.Linear(H, 2)

    def forward(self, x):
        return self.out(self.fc(x))


layers = nn.Sequential(nn.Linear(32, 16), nn.ReLU())
layers.append(nn.Linear(16, 4))


def run():
    model = Net()
    inputs = torch.randn(8, 32)
    return model(inputs)


def project(v):
    return v @ W


def attend(q):
    k = torch.randn(B, 16)
    scores = q @ k.T
    return F.softmax(scores, dim=-1).log()


y = layers(torch.randn(8, 32))
z = project(torch.randn(4, 8))
logits = Net()(torch.randn(8, 16))
loss = F.cross_entropy(logits, torch.randint(0, 2, (8, 3)))
w = x.view(T, B).transpose(0, 1).view(-1)
probs = torch.softmax(logits, dim=1)
nll = F.nll_loss(probs, torch.randint(0, 2, (8,)))
