#!/usr/bin/env python
# coding: utf-8

# # Flower classifier: train, keep the best epoch, look at one prediction

# In[1]:


import copy
import json
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cpu")
class_indict = {"0": "daisy", "1": "dandelion", "2": "roses", "3": "sunflowers", "4": "tulips"}


# In[2]:


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, 5, (n,), generator=g)
    hues = torch.linspace(0.1, 0.9, 5)[labels].view(n, 1, 1, 1)
    images = hues.expand(n, 3, 32, 32) + 0.2 * torch.randn(n, 3, 32, 32, generator=g)
    return TensorDataset(images, labels)


train_loader = DataLoader(make_split(80, 1), batch_size=16, shuffle=True)
validate_loader = DataLoader(make_split(20, 2), batch_size=16)


# In[3]:


class AlexNetMini(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, kernel_size=3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Dropout(p=0.5), nn.Linear(32 * 8 * 8, 64), nn.ReLU(inplace=True), nn.Linear(64, num_classes)
        )

    def forward(self, x):
        x = self.features(x)
        return self.classifier(torch.flatten(x, start_dim=1))


net = AlexNetMini(num_classes=5).to(device)
loss_function = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=2e-3)


# In[4]:


epochs = 3
best_acc = 0.0
best_state = None
for epoch in range(epochs):
    net.train()
    running_loss = 0.0
    for images, labels in train_loader:
        optimizer.zero_grad()
        outputs = net(images.to(device))
        loss = loss_function(outputs, labels.to(device))
        loss.backward()
        optimizer.step()
        running_loss += loss.item()

    net.eval()
    acc = 0.0
    with torch.no_grad():
        for val_images, val_labels in validate_loader:
            outputs = net(val_images.to(device))
            predict_y = torch.max(outputs, dim=1)[1]
            acc += torch.eq(predict_y, val_labels.to(device)).sum().item()
    val_accurate = acc / len(validate_loader.dataset)
    print("[epoch %d] train_loss: %.3f  val_accuracy: %.3f" % (epoch + 1, running_loss / len(train_loader), val_accurate))
    if val_accurate >= best_acc:
        best_acc = val_accurate
        best_state = copy.deepcopy(net.state_dict())

os.makedirs("weights", exist_ok=True)
torch.save(best_state, "weights/AlexNetMini_best.pth")


# ## Predict one image with the best checkpoint

# In[5]:


best_model = AlexNetMini(num_classes=5).to(device)
best_model.load_state_dict(torch.load("weights/AlexNetMini_best.pth", map_location=device))
best_model.eval()

img, true_label = validate_loader.dataset[0]
img = torch.unsqueeze(img, dim=0)

output = torch.squeeze(best_model(img.to(device))).cpu()
predict = torch.softmax(output, dim=0).numpy()
predict_cla = int(np.argmax(predict))

print_res = "class: {}   prob: {:.3}   (true: {})".format(
    class_indict[str(predict_cla)], float(predict[predict_cla]), class_indict[str(int(true_label))]
)
print(print_res)
print(json.dumps({class_indict[str(i)]: round(float(p), 3) for i, p in enumerate(predict)}))
