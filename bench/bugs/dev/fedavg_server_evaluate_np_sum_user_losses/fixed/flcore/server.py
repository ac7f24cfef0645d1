import numpy as np
import torch


class FedAvgServer:
    def __init__(self, model, users, num_glob_iters=2):
        self.model = model
        self.users = users
        self.num_glob_iters = num_glob_iters
        self.metrics = {"glob_acc": [], "glob_loss": []}

    def send_parameters(self):
        for user in self.users:
            user.set_parameters(self.model)

    def aggregate_parameters(self):
        total = sum(len(u.train_loader.dataset) for u in self.users)
        with torch.no_grad():
            for p in self.model.parameters():
                p.zero_()
            for user in self.users:
                w = len(user.train_loader.dataset) / total
                for p, up in zip(self.model.parameters(), user.model.parameters()):
                    p.add_(up, alpha=w)

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
        glob_loss = np.sum([x * y.detach() for (x, y) in zip(test_samples, test_losses)]).item() / np.sum(test_samples)
        self.metrics["glob_acc"].append(glob_acc)
        self.metrics["glob_loss"].append(glob_loss)
        print(f"Average Global Accuracy = {glob_acc:.4f}, Loss = {glob_loss:.2f}.")

    def train(self):
        for glob_iter in range(self.num_glob_iters):
            print(f"-------------Round number: {glob_iter} -------------")
            self.send_parameters()
            self.evaluate()
            for user in self.users:
                user.train()
            self.aggregate_parameters()
