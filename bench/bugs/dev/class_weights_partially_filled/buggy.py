from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F


def inverse_frequency_weights(labels, num_classes):
    counts = Counter(labels.tolist())
    weights = torch.Tensor(num_classes)
    for cls, count in counts.items():
        weights[cls] = len(labels) / (num_classes * count)
    return weights / weights.sum() * num_classes


num_classes = 6
labels = torch.randint(0, 4, (40,))
weights = inverse_frequency_weights(labels, num_classes)

model = nn.Linear(12, num_classes)
x = torch.randn(40, 12)
loss = F.cross_entropy(model(x), labels, weight=weights)
loss.backward()
print("weighted loss", loss.item())
