import torch
import torch.nn as nn


class StackedGRU(nn.Module):
    """GRU built from per-layer input and hidden projections, one pair per layer."""

    def __init__(self, input_size: int, hidden_size: int, layers: int = 2, bias: bool = True):
        super().__init__()
        self.hidden_size = hidden_size
        self.x2h = nn.ModuleList()
        self.h2h = nn.ModuleList()
        for layer in range(layers):
            self.x2h.append(nn.Linear(input_size if layer == 0 else hidden_size, 3 * hidden_size, bias=bias))
            self.h2h.append(nn.Linear(hidden_size, 3 * hidden_size, bias=bias))

    def cell(self, layer: int, x: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        i_r, i_z, i_n = self.x2h[layer](x).chunk(3, dim=-1)
        h_r, h_z, h_n = self.h2h[layer](h).chunk(3, dim=-1)
        r = torch.sigmoid(i_r + h_r)
        z = torch.sigmoid(i_z + h_z)
        n = torch.tanh(i_n + r * h_n)
        return (1 - z) * n + z * h

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        hs = [seq.new_zeros(seq.size(0), self.hidden_size) for _ in self.x2h]
        for t in range(seq.size(1)):
            inp = seq[:, t]
            for layer in range(len(self.x2h)):
                hs[layer] = self.cell(layer, inp, hs[layer])
                inp = hs[layer]
        return hs[-1]


def main():
    torch.manual_seed(0)
    rnn = StackedGRU(4, 16)
    head = nn.Linear(16, 1)
    opt = torch.optim.Adam(list(rnn.parameters()) + list(head.parameters()), lr=1e-2)
    x = torch.randn(16, 10, 4)
    y = x.sum(dim=(1, 2)).unsqueeze(-1) / 10
    for step in range(5):
        loss = nn.functional.mse_loss(head(rnn(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.4f}, {sum(p.numel() for p in rnn.parameters())} recurrent parameters")


if __name__ == "__main__":
    main()
