import argparse

import torch
import torch.nn.functional as F

from modeling.deeplab import DeepLab


class Trainer:
    def __init__(self, args):
        self.args = args
        self.model = DeepLab(backbone=args.backbone, num_classes=args.num_classes)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)

    def training(self, epoch, batches):
        self.model.train()
        train_loss = 0.0
        for image, target in batches:
            self.optimizer.zero_grad()
            output = self.model(image)
            loss = F.cross_entropy(output, target, ignore_index=255)
            loss.backward()
            self.optimizer.step()
            train_loss += loss.item()
        print(f"[Epoch: {epoch}] loss: {train_loss:.3f}")


def main():
    parser = argparse.ArgumentParser(description="DeepLabV3+ training")
    parser.add_argument("--backbone", type=str, default="mobilenet", choices=["resnet", "xception", "mobilenet"])
    parser.add_argument("--num-classes", type=int, default=5)
    parser.add_argument("--lr", type=float, default=0.007)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args([])
    torch.manual_seed(1)
    trainer = Trainer(args)
    batches = [(torch.rand(2, 3, 64, 64), torch.randint(0, args.num_classes, (2, 64, 64))) for _ in range(2)]
    for epoch in range(args.epochs):
        trainer.training(epoch, batches)


if __name__ == "__main__":
    main()
