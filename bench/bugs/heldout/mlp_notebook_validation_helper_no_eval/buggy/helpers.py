import torch


def validate(model, loader, criterion):
    valid_loss = 0.0
    correct = 0
    with torch.no_grad():
        for data, target in loader:
            output = model(data)
            valid_loss += criterion(output, target).item() * data.size(0)
            correct += (output.argmax(1) == target).sum().item()
    n = sum(len(t) for _, t in loader)
    return valid_loss / n, correct / n
