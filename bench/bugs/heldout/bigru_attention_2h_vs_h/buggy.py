import torch
from torch import nn


class AttentiveBiGRU(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_classes: int) -> None:
        super().__init__()
        self.rnn = nn.GRU(input_size, hidden_size, batch_first=True, bidirectional=True)
        self.attn = nn.Linear(hidden_size, 1)
        self.out = nn.Linear(2 * hidden_size, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        states, _ = self.rnn(x)
        weights = torch.softmax(self.attn(states), dim=1)
        return self.out((weights * states).sum(dim=1))


model = AttentiveBiGRU(input_size=12, hidden_size=20, num_classes=3)
print(model(torch.randn(5, 30, 12)).shape)
