import torch
import torch.nn as nn


def train_one_epoch(model, data_loader, optimizer, loss_criteria=nn.CrossEntropyLoss()):
    model.train()
    train_loss = 0
    for batch, (data, target) in enumerate(data_loader):
        optimizer.zero_grad()
        out = model(data)
        loss = loss_criteria(out, target)
        train_loss += loss.item()
        loss.backward()
        optimizer.step()
    avg_loss = train_loss / (batch + 1)
    print("Training set: Average loss: {:.6f}".format(avg_loss))
    return avg_loss


def test(model, data_loader, loss_criteria=nn.CrossEntropyLoss()):
    model.eval()
    test_loss, correct = 0, 0
    with torch.no_grad():
        batch_count = 0
        for data, target in data_loader:
            batch_count += 1
            out = model(data)
            test_loss += loss_criteria(out, target).item()
            correct += torch.sum(target == out.argmax(1)).item()
    avg_loss = test_loss / batch_count
    print("Validation set: Average loss: {:.6f}, Accuracy: {}/{}".format(avg_loss, correct, len(data_loader.dataset)))
    return avg_loss
