import logging

import torch
import torch.nn.functional as F

from model import IncrementalNet

log = logging.getLogger(__name__)


def base_train(model: IncrementalNet, loader, optimizer, epoch):
    model.train()
    total, correct, seen = 0.0, 0, 0
    for data, label in loader:
        logits = model(data)
        loss = F.cross_entropy(logits, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(label)
        correct += (logits.argmax(1) == label).sum().item()
        seen += len(label)
    log.info("epoch %d loss %.4f acc %.3f", epoch, total / seen, correct / seen)


@torch.no_grad()
def save_features(model: IncrementalNet, loader):
    model.eval()
    data_features, data_labels = [], []
    for data, label in loader:
        data_features.append(model.encode(data))
        data_labels.append(label)
    data_features = torch.cat(data_features).view(-1, model.feat_dim)
    data_labels = torch.cat(data_labels)
    return data_features, data_labels


@torch.no_grad()
def replace_base_fc(model: IncrementalNet, loader, class_list):
    features, labels = save_features(model, loader)
    prototypes = torch.stack([features[labels == c].mean(0) for c in class_list])
    model.fc.weight.data[class_list] = prototypes
    return model
