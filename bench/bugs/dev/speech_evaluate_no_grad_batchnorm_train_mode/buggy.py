import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

LABELS = "_abcdefgh"


class SpeechModel(nn.Module):
    def __init__(self, n_feats=13, hidden=24, n_classes=len(LABELS)):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(n_feats, hidden, 5, padding=2), nn.BatchNorm1d(hidden), nn.Hardtanh(0, 20))
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.2)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, spect):
        x = self.conv(spect).transpose(1, 2)
        x, _ = self.rnn(x)
        return self.fc(self.dropout(x))


def greedy_decode(log_probs):
    out = []
    for seq in log_probs.argmax(-1):
        chars, prev = [], 0
        for idx in seq.tolist():
            if idx != prev and idx != 0:
                chars.append(LABELS[idx])
            prev = idx
        out.append("".join(chars))
    return out


def evaluate(model, loader):
    decoded = []
    with torch.no_grad():
        for spect, _ in loader:
            out = model(spect)
            decoded += greedy_decode(F.log_softmax(out, -1))
    return decoded


def train(model, loader, epochs=2):
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, nesterov=True)
    for epoch in range(epochs):
        model.train()
        for spect, targets in loader:
            log_probs = F.log_softmax(model(spect), -1).transpose(0, 1)
            in_lens = torch.full((spect.size(0),), log_probs.size(0), dtype=torch.long)
            tgt_lens = torch.full((spect.size(0),), targets.size(1), dtype=torch.long)
            loss = ctc(log_probs, targets, in_lens, tgt_lens)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


spects = torch.randn(16, 13, 20)
targets = torch.randint(1, len(LABELS), (16, 4))
train_loader = DataLoader(TensorDataset(spects, targets), batch_size=4, shuffle=True)
test_loader = DataLoader(TensorDataset(spects[:8], targets[:8]), batch_size=4)
model = SpeechModel()
train(model, train_loader)
print(evaluate(model, test_loader)[:2])
