import torch.nn as nn


class LiteModule(nn.Module):
    """The subset of the LightningModule interface the in-house trainer drives."""

    def training_step(self, batch, batch_idx):
        raise NotImplementedError

    def configure_optimizers(self):
        raise NotImplementedError
