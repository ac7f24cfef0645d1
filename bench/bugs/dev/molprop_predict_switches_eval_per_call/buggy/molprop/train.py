import torch
import torch.nn.functional as F


def train_epoch(model, data_loader, optimizer, log_every=4):
    model.train()
    loss_sum, n_iter = 0.0, 0
    for fps, targets in data_loader:
        preds = model(fps)
        loss = F.mse_loss(preds, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_sum += loss.item()
        n_iter += 1
        if n_iter % log_every == 0:
            print(f"  iter {n_iter}: loss {loss_sum / n_iter:.4f}")
    return loss_sum / max(n_iter, 1)
