import torch
import torch.nn as nn
import torch.nn.functional as F

from nets import make_cnn

NUM_CLASSES = 10


def encode_targets(labels, num_classes=NUM_CLASSES):
    return F.one_hot(labels, num_classes).float()


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.criterion = nn.MSELoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_step(self, images, labels):
        self.model.train()
        out = self.model(images)
        target = encode_targets(labels)
        loss = self.criterion(out, target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    trainer = Trainer(make_cnn(NUM_CLASSES))
    images = torch.rand(8, 3, 64, 64)
    labels = torch.randint(0, NUM_CLASSES, (8,))
    for step in range(2):
        print(step, trainer.train_step(images, labels))


if __name__ == "__main__":
    main()
