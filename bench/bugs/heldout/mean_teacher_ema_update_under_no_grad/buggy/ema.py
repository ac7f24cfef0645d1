import torch


@torch.no_grad()
def update_ema_variables(model, ema_model, alpha: float, global_step: int) -> None:
    # use the true average until the exponential average is more correct
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.mul_(alpha).add_(param, alpha=1 - alpha)
