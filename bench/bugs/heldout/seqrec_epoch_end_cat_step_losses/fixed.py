"""Multi-behaviour sequential recommender, trained with a small Lightning-style loop (hooks called by a
hand-written fit()), exported from the experiment notebook."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger(__name__)


class BehaviourSeqRec(nn.Module):
    def __init__(self, n_items, n_behaviours=4, d_model=32, max_len=12):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, d_model, padding_idx=0)
        self.beh_emb = nn.Embedding(n_behaviours, d_model)
        self.pos_emb = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.out = nn.Linear(d_model, n_items + 1)

    def forward(self, items, behaviours):
        pos = torch.arange(items.size(1)).unsqueeze(0)
        h = self.item_emb(items) + self.beh_emb(behaviours) + self.pos_emb(pos)
        h = self.encoder(h, src_key_padding_mask=items.eq(0))
        return self.out(h[:, -1])

    def training_step(self, batch, batch_idx):
        items, behaviours, target = batch
        logits = self(items, behaviours)
        loss = F.cross_entropy(logits, target)
        return {"loss": loss, "log": {"train_loss": loss.detach()}}

    def training_epoch_end(self, training_step_outputs):
        loss = torch.stack([o["loss"] for o in training_step_outputs], 0).mean()
        log.info("epoch train loss %.4f", loss.item())
        return loss.item()

    def configure_optimizers(self, lr):
        return torch.optim.Adam(self.parameters(), lr=lr)


def make_batches(n_items, n_batches, batch_size, seq_len, generator):
    batches = []
    for _ in range(n_batches):
        items = torch.randint(1, n_items + 1, (batch_size, seq_len), generator=generator)
        items[:, :2] = 0
        behaviours = torch.randint(0, 4, (batch_size, seq_len), generator=generator)
        target = torch.randint(1, n_items + 1, (batch_size,), generator=generator)
        batches.append((items, behaviours, target))
    return batches


def fit(module, batches, epochs, lr):
    optimizer = module.configure_optimizers(lr)
    history = []
    for epoch in range(epochs):
        module.train()
        outputs = []
        for batch_idx, batch in enumerate(batches):
            out = module.training_step(batch, batch_idx)
            optimizer.zero_grad()
            out["loss"].backward()
            optimizer.step()
            outputs.append(out)
        history.append(module.training_epoch_end(outputs))
    return history


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args([])
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = BehaviourSeqRec(args.items)
    print(fit(model, make_batches(args.items, 4, 8, 12, g), args.epochs, args.lr))
