from typing import Optional

import torch
import torch.nn as nn


class CTCModel(nn.Module):
    def __init__(self, n_feats=20, hidden=32, vocab=12):
        super().__init__()
        self.encoder = nn.LSTM(n_feats, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, feats):
        h, _ = self.encoder(feats)
        return self.out(h).log_softmax(-1)


class Engine:
    def __init__(self, model, device="cpu", grad_clip: Optional[float] = 5.0, grad_noise: float = 0.0, use_amp=True):
        self.model = model.to(device)
        self.device = device
        self.grad_clip = grad_clip
        self.grad_noise = grad_noise
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.scaler = torch.amp.GradScaler(device, enabled=use_amp, init_scale=2.0**8)
        self.ctc = nn.CTCLoss(zero_infinity=True)

    def _apply_gradient_noise(self):
        for p in self.model.parameters():
            if p.grad is not None:
                p.grad.add_(torch.randn_like(p.grad) * self.grad_noise)

    def train_step(self, feats, targets, feat_lens, target_lens):
        with torch.autocast(self.device, dtype=torch.bfloat16):
            log_probs = self.model(feats)
        loss = self.ctc(log_probs.float().transpose(0, 1), targets, feat_lens, target_lens)
        self.optimizer.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)
        if self.grad_noise:
            self._apply_gradient_noise()
        if self.grad_clip:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.grad_clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    engine = Engine(CTCModel())
    for step in range(3):
        feats = torch.randn(4, 30, 20)
        targets = torch.randint(1, 12, (4, 8))
        print(step, engine.train_step(feats, targets, torch.full((4,), 30), torch.full((4,), 8)))
