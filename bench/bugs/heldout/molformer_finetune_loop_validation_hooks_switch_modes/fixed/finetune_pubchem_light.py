import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from loop import FitLoop


class LightningModule(nn.Module):
    def __init__(self, config, vocab_size=40):
        super().__init__()
        self.config = config
        self.tok_emb = nn.Embedding(vocab_size, config.n_embd)
        layer = nn.TransformerEncoderLayer(config.n_embd, config.n_head, config.n_embd * 2, config.d_dropout,
                                           batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, config.n_layer)
        self.drop = nn.Dropout(config.d_dropout)
        self.net = nn.Sequential(nn.Linear(config.n_embd, config.n_embd), nn.GELU(), nn.Dropout(config.dropout),
                                 nn.Linear(config.n_embd, 1))

    def forward(self, idx, mask):
        x = self.drop(self.tok_emb(idx))
        x = self.blocks(x, src_key_padding_mask=mask.eq(0))
        token_embeddings = x * mask.unsqueeze(-1)
        pooled = token_embeddings.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.net(pooled).squeeze(-1)

    def training_step(self, batch, batch_idx):
        idx, mask, targets = batch
        return F.mse_loss(self(idx, mask), targets)

    def validation_step(self, val_batch, batch_idx):
        idx, mask, targets = val_batch
        preds = self(idx, mask)
        return {"loss": F.mse_loss(preds, targets).item(), "n": len(targets)}

    def validation_epoch_end(self, outputs):
        n = sum(o["n"] for o in outputs)
        return {"val_mse": sum(o["loss"] * o["n"] for o in outputs) / n}

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.config.lr_start, betas=(0.9, 0.99))


def smiles_batches(n_batches, generator, batch_size=4, seq_len=14):
    batches = []
    for _ in range(n_batches):
        idx = torch.randint(1, 40, (batch_size, seq_len), generator=generator)
        mask = (torch.arange(seq_len) < torch.randint(6, seq_len + 1, (batch_size, 1), generator=generator)).long()
        batches.append((idx * mask, mask, torch.randn(batch_size, generator=generator)))
    return batches


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--n_embd", type=int, default=32)
    p.add_argument("--n_head", type=int, default=4)
    p.add_argument("--n_layer", type=int, default=1)
    p.add_argument("--d_dropout", type=float, default=0.1)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--lr_start", type=float, default=1e-4)
    p.add_argument("--max_epochs", type=int, default=2)
    return p.parse_args([])


if __name__ == "__main__":
    config = parse()
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = LightningModule(config)
    FitLoop(max_epochs=config.max_epochs).fit(model, smiles_batches(3, g), smiles_batches(2, g))
