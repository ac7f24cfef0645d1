import torch

from .model import diffusion_loss_func


class ModelEma:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}

    @torch.no_grad()
    def update(self, model):
        for k, v in model.state_dict().items():
            if v.dtype.is_floating_point:
                self.shadow[k].mul_(self.decay).add_(v.detach(), alpha=1 - self.decay)


def train_epoch(data_loader, model, optimizer, args, ema=None):
    epoch_loss = []
    model.train()
    for batch in data_loader:
        loss = diffusion_loss_func(model, batch)
        loss["loss"] = loss["neighbor_prediction_loss"] + args["alpha_planning_loss"] * loss["ego_planning_loss"]
        optimizer.zero_grad()
        loss["loss"].backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        if ema is not None:
            ema.update(model)
        epoch_loss.append({k: v.detach() for k, v in loss.items()})
    epoch_mean_loss = {k: torch.stack([d[k] for d in epoch_loss]).mean().item() for k in epoch_loss[0]}
    return epoch_mean_loss, epoch_mean_loss["loss"]
