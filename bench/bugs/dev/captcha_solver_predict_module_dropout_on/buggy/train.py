import torch
import torch.nn as nn
from torch.utils.data import DataLoader

import settings
from dataset import SyntheticCaptchas
from model import CaptchaCNN
from predict import accuracy


def main():
    torch.manual_seed(1)
    cnn = CaptchaCNN()
    cnn.train()
    criterion = nn.MultiLabelSoftMarginLoss()
    optimizer = torch.optim.Adam(cnn.parameters(), lr=settings.LEARNING_RATE)
    train_loader = DataLoader(SyntheticCaptchas(128, seed=1), batch_size=settings.BATCH_SIZE, shuffle=True)
    test_set = SyntheticCaptchas(32, seed=2)

    for epoch in range(settings.EPOCHS):
        for i, (images, labels) in enumerate(train_loader):
            predict_labels = cnn(images)
            loss = criterion(predict_labels, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if (i + 1) % 2 == 0:
                print("epoch:", epoch, "step:", i, "loss:", loss.item())
        print("test accuracy:", accuracy(cnn, test_set))
        torch.save(cnn.state_dict(), "model.pkl")


if __name__ == "__main__":
    main()
