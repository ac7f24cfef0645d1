import logging

log = logging.getLogger(__name__)


class LiteTrainer:
    def __init__(self, max_epochs, log_every_n_steps=4):
        self.max_epochs = max_epochs
        self.log_every_n_steps = log_every_n_steps
        self.global_step = 0

    def _unpack(self, configured):
        optimizer, sched = configured
        if isinstance(sched, dict):
            return optimizer, sched["scheduler"], sched.get("interval", "epoch")
        return optimizer, sched, "epoch"

    def fit(self, module, train_dataloader):
        optimizer, scheduler, interval = self._unpack(module.configure_optimizers())
        for epoch in range(self.max_epochs):
            module.train()
            for batch_idx, batch in enumerate(train_dataloader):
                loss = module.training_step(batch, batch_idx)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                self.global_step += 1
                if interval == "step":
                    scheduler.step()
                if self.global_step % self.log_every_n_steps == 0:
                    log.info("epoch %d step %d loss %.4f lr %.2e", epoch, self.global_step, loss.item(),
                             optimizer.param_groups[0]["lr"])
            if interval == "epoch":
                scheduler.step()
