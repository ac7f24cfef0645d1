import torch
from torch import nn


class StepwiseEncoder(nn.Module):
    def __init__(self, n_in: int = 5, hidden: int = 12) -> None:
        super().__init__()
        self.hidden = hidden
        self.cell = nn.RNNCell(n_in, hidden)
        self.score = nn.Linear(hidden, 1)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        T = seq.size(0)
        states = torch.FloatTensor(T, self.hidden)
        h = self.cell(seq[0])
        for t in range(1, T):
            h = self.cell(seq[t], h)
            states[t] = h
        weights = torch.softmax(self.score(states), dim=0)
        return (weights * states).sum(0)


encoder = StepwiseEncoder()
print(encoder(torch.randn(9, 5)))
