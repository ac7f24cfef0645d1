#!/usr/bin/env python
# coding: utf-8
# Multi-core AlexNet-style training on FashionMNIST, one process per core (exported from the Colab notebook;
# the data is a synthetic stand-in so the notebook runs anywhere).

# In[1]:


import os
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

FLAGS = {"batch_size": 8, "num_workers": 0, "learning_rate": 0.01, "momentum": 0.5, "num_epochs": 3, "seed": 1}


# In[2]:


class FashionNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Dropout(), nn.Linear(32 * 7 * 7, 64), nn.ReLU(),
                                        nn.Linear(64, num_classes))

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


# In[3]:


def train_fashion(flags, ordinal=0, world_size=1):
    torch.manual_seed(flags["seed"])
    g = torch.Generator().manual_seed(flags["seed"])
    train_dataset = TensorDataset(torch.rand(48, 1, 28, 28, generator=g), torch.randint(0, 10, (48,), generator=g))
    train_sampler = DistributedSampler(train_dataset, num_replicas=world_size, rank=ordinal, shuffle=True)
    train_loader = DataLoader(train_dataset, batch_size=flags["batch_size"], sampler=train_sampler,
                              num_workers=flags["num_workers"], drop_last=True)
    net = FashionNet()
    optimizer = torch.optim.SGD(net.parameters(), lr=flags["learning_rate"], momentum=flags["momentum"])
    loss_fn = nn.CrossEntropyLoss()

    def train_loop_fn(loader):
        tracker = time.time()
        net.train()
        for x, (data, target) in enumerate(loader):
            optimizer.zero_grad()
            output = net(data)
            loss = loss_fn(output, target)
            loss.backward()
            optimizer.step()
            if x % 2 == 0:
                print(f"[ordinal {ordinal}]({x}) Loss={loss.item():.5f} Time={time.time() - tracker:.2f}")

    for epoch in range(1, flags["num_epochs"] + 1):
        train_sampler.set_epoch(epoch)
        train_loop_fn(train_loader)
        print(f"Finished training epoch {epoch}")
    return net


# In[4]:


model = train_fashion(FLAGS, ordinal=int(os.environ.get("RANK", 0)), world_size=int(os.environ.get("WORLD_SIZE", 1)))
