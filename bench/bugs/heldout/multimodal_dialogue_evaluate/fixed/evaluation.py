import torch


def evaluate(model, batches, criterion):
    model.eval()
    total, correct, loss_sum = 0, 0, 0.0
    with torch.no_grad():
        for turns, image, target in batches:
            scores = model(turns, image)
            loss_sum += criterion(scores, target).item() * len(target)
            correct += (scores.argmax(1) == target).sum().item()
            total += len(target)
    return loss_sum / total, correct / total
