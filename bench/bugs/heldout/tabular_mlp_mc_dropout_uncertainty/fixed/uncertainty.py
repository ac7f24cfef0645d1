import torch
import torch.nn as nn


def enable_mc_dropout(model: nn.Module) -> None:
    """Keep the dropout layers sampling at inference time; batch norm (if any) stays in eval mode."""
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()


def predict_with_uncertainty(model, x_cat, x_cont, n_samples=20):
    model.eval()
    enable_mc_dropout(model)
    with torch.no_grad():
        preds = torch.stack([model(x_cat, x_cont) for _ in range(n_samples)])
    return preds.mean(0), preds.std(0)
