import torch


def get_scheduler(optimizer, opt):
    def lambda_rule(epoch):
        return 1.0 - max(0, epoch + opt.epoch_count - opt.n_epochs) / float(opt.n_epochs_decay + 1)

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda=lambda_rule)


class BaseModel:
    def __init__(self, opt):
        self.opt = opt
        self.optimizers = []
        self.schedulers = []

    def setup(self):
        self.schedulers = [get_scheduler(optimizer, self.opt) for optimizer in self.optimizers]

    def update_learning_rate(self):
        old_lr = self.optimizers[0].param_groups[0]["lr"]
        for scheduler in self.schedulers:
            scheduler.step()
        lr = self.optimizers[0].param_groups[0]["lr"]
        print(f"learning rate {old_lr:.7f} -> {lr:.7f}")
