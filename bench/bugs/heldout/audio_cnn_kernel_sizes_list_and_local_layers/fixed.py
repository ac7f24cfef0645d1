import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordCNN(nn.Module):
    def __init__(self, n_mels=20, n_classes=6, channels=(16, 24, 32), kernel_sizes=(5, 3, 3)):
        super().__init__()
        self.kernel_sizes = list(kernel_sizes)
        self.activations = [F.relu, F.gelu, F.relu]
        self.channel_plan = [n_mels, *channels]
        layers = []
        for c_in, c_out, k in zip(self.channel_plan[:-1], self.channel_plan[1:], self.kernel_sizes):
            layers.append(nn.Conv1d(c_in, c_out, k, padding=k // 2))
        self.convs = nn.ModuleList(layers)
        norms = [nn.BatchNorm1d(c) for c in channels]
        self.norms = nn.Sequential(*norms)
        self.classifier = nn.Linear(channels[-1], n_classes)

    def forward(self, mel):
        x = mel
        for conv, norm, act in zip(self.convs, self.norms, self.activations):
            x = act(norm(conv(x)))
        return self.classifier(x.mean(dim=-1))


def main():
    torch.manual_seed(0)
    model = KeywordCNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("parameters:", sum(p.numel() for p in model.parameters()))
    for step in range(3):
        mel, labels = torch.randn(8, 20, 40), torch.randint(0, 6, (8,))
        loss = F.cross_entropy(model(mel), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))


if __name__ == "__main__":
    main()
