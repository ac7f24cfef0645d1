import torch
import torch.nn as nn


class SegTrainer:
    def __init__(self, model, lr=1e-3, pos_weight=2.0):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        # per-pixel losses: pixels outside the field of view are masked out before reducing
        self.criterion = nn.BCEWithLogitsLoss(reduction="none", pos_weight=torch.tensor(pos_weight))

    def masked_loss(self, logits, masks, fov):
        pixel_loss = self.criterion(logits, masks)
        fov = fov.float()
        return (pixel_loss * fov).sum() / fov.sum().clamp(min=1.0)

    def training_step(self, batch):
        images, masks, fov = batch
        logits = self.model(images)
        loss = self.masked_loss(logits, masks, fov)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, loader, epochs=2):
        for epoch in range(epochs):
            self.model.train()
            losses = [self.training_step(batch) for batch in loader]
            print(f"epoch {epoch}: masked bce {sum(losses) / len(losses):.4f}")
