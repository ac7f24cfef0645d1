import copy
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import SceneNet

CLASSES = ["annual_crop", "forest", "herbaceous", "highway", "industrial", "pasture", "permanent_crop",
           "residential", "river", "sea_lake"]


def train_model(model: SceneNet, dataloaders, criterion, optimizer, scheduler, num_epochs=2):
    since = time.time()
    best_wts, best_acc = copy.deepcopy(model.state_dict()), 0.0
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_loss, running_corrects = 0.0, 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += (outputs.argmax(1) == labels).sum().item()
            if phase == "train":
                scheduler.step()
            size = len(dataloaders[phase].dataset)
            epoch_acc = running_corrects / size
            print(f"epoch {epoch} {phase} loss {running_loss / size:.4f} acc {epoch_acc:.4f}")
            if phase == "val" and epoch_acc > best_acc:
                best_acc, best_wts = epoch_acc, copy.deepcopy(model.state_dict())
    print(f"done in {time.time() - since:.1f}s, best val acc {best_acc:.4f}")
    model.load_state_dict(best_wts)
    return model


def patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, len(CLASSES), (n,), generator=g)
    x = torch.randn(n, 13, 32, 32, generator=g) + labels[:, None, None, None].float() / len(CLASSES)
    return TensorDataset(x, labels)


if __name__ == "__main__":
    dataloaders = {"train": DataLoader(patches(64, 0), batch_size=16, shuffle=True),
                   "val": DataLoader(patches(32, 1), batch_size=16)}
    model = SceneNet(n_classes=len(CLASSES))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=7, gamma=0.1)
    train_model(model, dataloaders, nn.CrossEntropyLoss(), optimizer, scheduler)
