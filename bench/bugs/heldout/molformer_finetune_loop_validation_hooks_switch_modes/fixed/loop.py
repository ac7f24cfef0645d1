"""A small Lightning-like fit loop: the loop, not the module, switches train/eval around validation."""
import torch


class FitLoop:
    def __init__(self, max_epochs=2, log_every=2):
        self.max_epochs = max_epochs
        self.log_every = log_every

    def _run_train_epoch(self, module, optimizer, loader, epoch):
        module.train()
        for batch_idx, batch in enumerate(loader):
            loss = module.training_step(batch, batch_idx)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if batch_idx % self.log_every == 0:
                print(f"epoch {epoch} step {batch_idx} loss {loss.item():.4f}")

    @torch.no_grad()
    def _run_validation(self, module, loader):
        module.eval()
        outputs = [module.validation_step(batch, i) for i, batch in enumerate(loader)]
        return module.validation_epoch_end(outputs)

    def fit(self, module, train_loader, val_loader):
        optimizer = module.configure_optimizers()
        for epoch in range(self.max_epochs):
            self._run_train_epoch(module, optimizer, train_loader, epoch)
            metrics = self._run_validation(module, val_loader)
            print(f"epoch {epoch} validation {metrics}")
