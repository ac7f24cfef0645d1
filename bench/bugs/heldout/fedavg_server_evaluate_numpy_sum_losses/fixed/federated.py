import copy

import numpy as np
import torch
import torch.nn as nn


class User:
    def __init__(self, user_id, model, train_data, test_data, learning_rate=0.01, local_epochs=2):
        self.id = user_id
        self.model = copy.deepcopy(model)
        self.train_data, self.test_data = train_data, test_data
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=learning_rate)
        self.local_epochs = local_epochs

    def set_parameters(self, model):
        self.model.load_state_dict(model.state_dict())

    def train(self):
        self.model.train()
        x, y = self.train_data
        for _ in range(self.local_epochs):
            self.optimizer.zero_grad()
            loss = self.loss(self.model(x), y)
            loss.backward()
            self.optimizer.step()

    def test(self):
        self.model.eval()
        x, y = self.test_data
        output = self.model(x)
        test_acc = (output.argmax(1) == y).sum().item()
        loss = self.loss(output, y).item()
        return test_acc, loss, y.shape[0]


class Server:
    def __init__(self, model, users):
        self.model = model
        self.users = users
        self.metrics = {"glob_acc": [], "glob_loss": []}

    def aggregate_parameters(self):
        total = sum(u.train_data[1].shape[0] for u in self.users)
        with torch.no_grad():
            for name, param in self.model.state_dict().items():
                param.copy_(sum(u.model.state_dict()[name] * u.train_data[1].shape[0] / total for u in self.users))

    def test(self):
        num_samples, tot_correct, losses = [], [], []
        for c in self.users:
            ct, c_loss, ns = c.test()
            tot_correct.append(ct)
            num_samples.append(ns)
            losses.append(c_loss)
        return num_samples, tot_correct, losses

    def evaluate(self):
        test_samples, test_accs, test_losses = self.test()
        glob_acc = np.sum(test_accs) * 1.0 / np.sum(test_samples)
        glob_loss = np.sum([x * y for (x, y) in zip(test_samples, test_losses)]).item() / np.sum(test_samples)
        self.metrics["glob_acc"].append(glob_acc)
        self.metrics["glob_loss"].append(glob_loss)
        print(f"Average Global Accuracy = {glob_acc:.4f}, Loss = {glob_loss:.2f}.")
