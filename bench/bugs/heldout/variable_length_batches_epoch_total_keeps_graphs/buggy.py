import torch
import torch.nn as nn


class SeqRegressor(nn.Module):
    def __init__(self, n_in=4, hidden=16):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, seq):
        out, _ = self.gru(seq.unsqueeze(0))
        return self.head(out[0])


def batch_loss(model, criteria, batch):
    """Sequences in a batch have different lengths: score each one and sum."""
    loss = 0
    for seq, target in batch:
        loss_part = criteria(model(seq).squeeze(-1), target)
        loss += loss_part
    return loss / len(batch)


def run_epoch(model, optimizer, batches):
    criteria = nn.MSELoss()
    epoch_total = 0
    for batch in batches:
        loss = batch_loss(model, criteria, batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_total += loss
    return epoch_total / len(batches)


def make_batches(n_batches, per_batch):
    batches = []
    for _ in range(n_batches):
        lengths = torch.randint(3, 9, (per_batch,))
        batches.append([(torch.randn(int(n), 4), torch.randn(int(n))) for n in lengths])
    return batches


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SeqRegressor()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        print(epoch, float(run_epoch(model, optimizer, make_batches(8, 3))))
