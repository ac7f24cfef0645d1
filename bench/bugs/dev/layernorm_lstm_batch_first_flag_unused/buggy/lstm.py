import torch
from torch import nn


class LayerNormLSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size, 4 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 4 * hidden_size, bias=False)
        self.ln_gates = nn.LayerNorm(4 * hidden_size)
        self.ln_cell = nn.LayerNorm(hidden_size)

    def forward(self, x, state):
        h, c = state
        preact = self.i2h(x) + self.h2h(h)
        i, f, g, o = self.ln_gates(preact).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(self.ln_cell(c))
        return h, c


class LayerNormLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=1, batch_first=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.batch_first = batch_first
        self.cells = nn.ModuleList(
            LayerNormLSTMCell(input_size if i == 0 else hidden_size, hidden_size) for i in range(num_layers)
        )

    def init_hidden(self, batch_size):
        zeros = torch.zeros(batch_size, self.hidden_size)
        return [(zeros, zeros) for _ in self.cells]

    def _layer_forward(self, cell, x, state):
        outputs = []
        for t in range(x.size(0)):
            state = cell(x[t], state)
            outputs.append(state[0])
        return torch.stack(outputs), state

    def forward(self, x, hidden):
        last = []
        for cell, state in zip(self.cells, hidden):
            x, state = self._layer_forward(cell, x, state)
            last.append(state)
        if self.batch_first:
            x = x.permute(1, 0, 2)
        return x, last
