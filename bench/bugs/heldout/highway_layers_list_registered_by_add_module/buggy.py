import torch
import torch.nn as nn
import torch.nn.functional as F


class Highway(nn.Module):
    def __init__(self, size, num_layers, f=F.relu):
        super().__init__()
        self.num_layers = num_layers
        self.nonlinear = [nn.Linear(size, size) for _ in range(num_layers)]
        self._add_to_parameters(self.nonlinear, "nonlinear")
        self.linear = [nn.Linear(size, size) for _ in range(num_layers)]
        self._add_to_parameters(self.linear, "linear")
        self.gate = [nn.Linear(size, size) for _ in range(num_layers)]
        self._add_to_parameters(self.gate, "gate")
        self.f = f

    def forward(self, x):
        for layer in range(self.num_layers):
            gate = torch.sigmoid(self.gate[layer](x))
            nonlinear = self.f(self.nonlinear[layer](x))
            linear = self.linear[layer](x)
            x = gate * nonlinear + (1 - gate) * linear
        return x

    def _add_to_parameters(self, modules, name):
        for i, module in enumerate(modules):
            self.add_module(f"{name}_{i}", module)


class CharWordEncoder(nn.Module):
    def __init__(self, n_chars=40, char_dim=8, width=16, n_classes=3):
        super().__init__()
        self.chars = nn.Embedding(n_chars, char_dim)
        self.conv = nn.Conv1d(char_dim, width, kernel_size=3, padding=1)
        self.highway = Highway(width, num_layers=2)
        self.out = nn.Linear(width, n_classes)

    def forward(self, char_ids):
        h = self.conv(self.chars(char_ids).transpose(1, 2)).max(dim=2).values
        return self.out(self.highway(h))


def main(steps=3):
    model = CharWordEncoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        words = torch.randint(0, 40, (6, 9))
        labels = torch.randint(0, 3, (6,))
        loss = F.cross_entropy(model(words), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item(), sum(p.numel() for p in model.parameters()))


if __name__ == "__main__":
    main()
