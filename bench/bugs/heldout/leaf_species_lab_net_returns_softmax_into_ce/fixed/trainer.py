import torch


class Trainer:
    def __init__(self, net, criterion, lr=1e-3):
        self.net = net
        self.criterion = criterion
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-4)

    def fit_batch(self, x, y):
        self.net.train()
        self.optimizer.zero_grad()
        output = self.net(x)
        loss = self.criterion(output, y)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def accuracy(self, x, y):
        self.net.eval()
        return (self.net(x).argmax(dim=1) == y).float().mean().item()
