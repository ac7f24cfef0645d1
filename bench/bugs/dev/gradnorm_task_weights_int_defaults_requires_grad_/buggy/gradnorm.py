import torch


class GradNormBalancer:
    """Learns one weight per task so that the tasks' gradient norms on the shared layer stay balanced."""

    def __init__(self, cfg, shared_layer):
        self.alpha = cfg.alpha
        self.shared_layer = shared_layer
        self.weights = torch.tensor(cfg.task_weights).requires_grad_()
        self.optimizer = torch.optim.Adam([self.weights], lr=cfg.weight_lr)
        self.initial_losses = None

    def weighted_loss(self, task_losses):
        return (self.weights * task_losses).sum()

    def update_weights(self, task_losses):
        if self.initial_losses is None:
            self.initial_losses = task_losses.detach()
        w = self.shared_layer.weight
        norms = torch.stack([
            torch.autograd.grad(self.weights[i] * task_losses[i], w, retain_graph=True, create_graph=True)[0].norm()
            for i in range(len(task_losses))
        ])
        ratios = task_losses.detach() / self.initial_losses
        inverse_rate = ratios / ratios.mean()
        target = (norms.mean() * inverse_rate ** self.alpha).detach()
        self.optimizer.zero_grad()
        (norms - target).abs().sum().backward()
        self.optimizer.step()
        with torch.no_grad():
            self.weights.clamp_(min=1e-3)
            self.weights.mul_(len(self.weights) / self.weights.sum())
