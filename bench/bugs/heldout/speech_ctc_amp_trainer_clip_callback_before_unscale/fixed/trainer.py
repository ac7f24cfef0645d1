import torch
import torch.nn.functional as F


class AmpTrainer:
    def __init__(self, model, optimizer, callbacks=(), device_type="cpu"):
        self.model = model
        self.optimizer = optimizer
        self.callbacks = list(callbacks)
        self.device_type = device_type
        self.scaler = torch.amp.GradScaler(device_type)
        self.last_loss = float("nan")
        self.last_grad_norm = float("nan")

    def step(self, feats, targets, feat_lens, target_lens):
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast(self.device_type, dtype=torch.bfloat16):
            log_probs = self.model(feats)
        loss = F.ctc_loss(log_probs.float().transpose(0, 1), targets, feat_lens, target_lens, zero_infinity=True)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        for cb in self.callbacks:
            cb.on_before_step(self)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.last_loss = loss.item()

    def fit(self, batches, epochs):
        for epoch in range(epochs):
            self.model.train()
            for batch in batches:
                self.step(*batch)
            for cb in self.callbacks:
                cb.on_epoch_end(self, epoch)
