"""A small Brain class in the style of SpeechBrain: subclasses define compute_forward / compute_objectives."""

import enum
import logging

import torch

logger = logging.getLogger(__name__)


class Stage(enum.Enum):
    TRAIN = enum.auto()
    VALID = enum.auto()


class Brain:
    def __init__(self, modules, opt_class, hparams, auto_mix_prec=False, max_grad_norm=5.0):
        self.modules = torch.nn.ModuleDict(modules)
        self.hparams = hparams
        self.opt_class = opt_class
        self.auto_mix_prec = auto_mix_prec
        self.max_grad_norm = max_grad_norm
        self.nonfinite_count = 0
        self.step = 0
        self.optimizer = None
        if self.auto_mix_prec:
            self.scaler = torch.amp.GradScaler("cpu")

    def init_optimizers(self):
        self.optimizer = self.opt_class(self.modules.parameters())

    def compute_forward(self, batch, stage):
        raise NotImplementedError

    def compute_objectives(self, predictions, batch, stage):
        raise NotImplementedError

    def check_gradients(self, loss):
        if not torch.isfinite(loss):
            self.nonfinite_count += 1
            logger.warning("non-finite loss %s (%d so far)", loss.item(), self.nonfinite_count)
            return False
        torch.nn.utils.clip_grad_norm_(self.modules.parameters(), self.max_grad_norm)
        return True

    def fit_batch(self, batch):
        if self.auto_mix_prec:
            self.optimizer.zero_grad()
            with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
                outputs = self.compute_forward(batch, Stage.TRAIN)
                loss = self.compute_objectives(outputs, batch, Stage.TRAIN)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)
            if self.check_gradients(loss):
                self.scaler.step(self.optimizer)
            self.scaler.update()
        else:
            outputs = self.compute_forward(batch, Stage.TRAIN)
            loss = self.compute_objectives(outputs, batch, Stage.TRAIN)
            loss.backward()
            if self.check_gradients(loss):
                self.optimizer.step()
            self.optimizer.zero_grad()
        self.step += 1
        return loss.detach()

    def evaluate_batch(self, batch):
        with torch.no_grad():
            outputs = self.compute_forward(batch, Stage.VALID)
            return self.compute_objectives(outputs, batch, Stage.VALID).detach()

    def fit(self, epochs, train_set, valid_set=None):
        if self.optimizer is None:
            self.init_optimizers()
        for epoch in range(epochs):
            self.modules.train()
            avg = 0.0
            for i, batch in enumerate(train_set, start=1):
                avg += (self.fit_batch(batch).float().item() - avg) / i
            msg = f"epoch {epoch}: train loss {avg:.4f}"
            if valid_set is not None:
                self.modules.eval()
                losses = [self.evaluate_batch(b).float().item() for b in valid_set]
                msg += f", valid loss {sum(losses) / len(losses):.4f}"
            logger.info(msg)
