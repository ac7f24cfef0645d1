import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class User:
    def __init__(self, user_id, train_data, test_data, model, batch_size=16, learning_rate=0.05, local_epochs=1):
        self.id = user_id
        self.train_loader = DataLoader(train_data, batch_size=batch_size, shuffle=True)
        self.test_loader = DataLoader(test_data, batch_size=len(test_data))
        self.model = copy.deepcopy(model)
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=learning_rate)
        self.local_epochs = local_epochs

    def set_parameters(self, model):
        for old, new in zip(self.model.parameters(), model.parameters()):
            old.data = new.data.clone()

    def train(self):
        self.model.train()
        for _ in range(self.local_epochs):
            for x, y in self.train_loader:
                self.optimizer.zero_grad()
                loss = self.loss(self.model(x), y)
                loss.backward()
                self.optimizer.step()

    def test(self):
        self.model.eval()
        test_acc, loss = 0, 0
        for x, y in self.test_loader:
            output = self.model(x)
            loss += self.loss(output, y)
            test_acc += (torch.argmax(output, dim=1) == y).sum().item()
        return test_acc, loss, y.shape[0]
