import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.convs = nn.ModuleList([
            nn.Conv2d(1, 16, 3, padding=1),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.Conv2d(32, 64, 3, padding=1),
        ])
        self.fc1 = nn.Linear(64 * 4 * 4, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        for conv in self.convs:
            x = F.max_pool2d(F.relu(conv(x)), 2)
        x = x.view(-1, 64 * 4 * 4)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


model = Net()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
data, target = torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))
optimizer.zero_grad()
loss = F.nll_loss(model(data), target)
loss.backward()
optimizer.step()
print(loss.item())
