import torch
import torch.nn as nn


class Solver:
    def __init__(self, args, test_dataloader):
        self.args = args
        self.test_dataloader = test_dataloader
        self.ce_loss = nn.CrossEntropyLoss()

    def read_data(self, dataloader):
        while True:
            for img, label in dataloader:
                yield img, label

    def train(self, querry_dataloader, task_model):
        labeled_data = self.read_data(querry_dataloader)
        optim_task_model = torch.optim.SGD(task_model.parameters(), lr=0.01, weight_decay=5e-4, momentum=0.9)
        task_model.train()
        for iter_count in range(self.args.train_iterations):
            labeled_imgs, labels = next(labeled_data)
            preds = task_model(labeled_imgs)
            task_loss = self.ce_loss(preds, labels)
            optim_task_model.zero_grad()
            task_loss.backward()
            optim_task_model.step()
            if iter_count % 2 == 0:
                print(f"Current training iteration: {iter_count}, task loss {task_loss.item():.4f}")
        return self.test(task_model)

    def test(self, task_model):
        total, correct = 0, 0
        for imgs, labels in self.test_dataloader:
            with torch.no_grad():
                preds = task_model(imgs)
            preds = torch.argmax(preds, dim=1)
            correct += (preds == labels).sum().item()
            total += imgs.size(0)
        return correct / total * 100
