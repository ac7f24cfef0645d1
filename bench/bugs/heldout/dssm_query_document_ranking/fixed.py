import torch
import torch.nn as nn
import torch.nn.functional as F

WORD_DEPTH = 100
K, L, J = 32, 16, 4


class CDSSM(nn.Module):
    """Convolutional DSSM: scores one clicked document against J unclicked ones for each query."""

    def __init__(self, gamma=10.0):
        super().__init__()
        self.query_conv = nn.Conv1d(WORD_DEPTH, K, 1)
        self.query_sem = nn.Linear(K, L)
        self.doc_conv = nn.Conv1d(WORD_DEPTH, K, 1)
        self.doc_sem = nn.Linear(K, L)
        self.gamma = gamma

    def semantic(self, x, conv, sem):
        h = torch.tanh(conv(x.transpose(1, 2)))
        return torch.tanh(sem(h.max(dim=2).values))

    def forward(self, q, pos, negs):
        q_s = self.semantic(q, self.query_conv, self.query_sem)
        docs = [self.semantic(d, self.doc_conv, self.doc_sem) for d in [pos, *negs]]
        dots = torch.stack([F.cosine_similarity(q_s, d, dim=1) for d in docs], dim=1)
        return self.gamma * dots


def batch_of_queries(n, g):
    sample = lambda: (torch.rand(n, 5, WORD_DEPTH, generator=g) < 0.05).float()
    return sample(), sample(), [sample() for _ in range(J)]


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = CDSSM()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(3):
        q, pos, negs = batch_of_queries(8, g)
        y_pred = model(q, pos, negs)
        y = torch.zeros(8, dtype=torch.long)
        loss = criterion(y_pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
