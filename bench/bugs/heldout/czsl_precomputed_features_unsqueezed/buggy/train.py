import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import CompositionDataset
from model import CompositionNet

EPOCHS, BATCH_SIZE, TEMPERATURE = 2, 8, 0.05


def train_one_epoch(model, loader, optimizer):
    model.train()
    for img, attr, obj in loader:
        attr_scores, obj_scores = model(img)
        loss = F.cross_entropy(attr_scores / TEMPERATURE, attr) + F.cross_entropy(obj_scores / TEMPERATURE, obj)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    trainset = CompositionDataset()
    loader = DataLoader(trainset, batch_size=BATCH_SIZE, shuffle=True)
    model = CompositionNet(trainset.num_attrs, trainset.num_objs)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-5, weight_decay=5e-5)
    for epoch in range(EPOCHS):
        print(epoch, train_one_epoch(model, loader, optimizer))


if __name__ == "__main__":
    main()
