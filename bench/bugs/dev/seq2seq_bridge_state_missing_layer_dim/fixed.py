from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Seq2SeqConfig:
    src_vocab: int = 50
    trg_vocab: int = 60
    emb_dim: int = 32
    hidden: int = 64
    pad_idx: int = 0


class Encoder(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig) -> None:
        super().__init__()
        self.embed = nn.Embedding(cfg.src_vocab, cfg.emb_dim, padding_idx=cfg.pad_idx)
        self.rnn = nn.GRU(cfg.emb_dim, cfg.hidden, batch_first=True, bidirectional=True)

    def forward(self, src: torch.Tensor):
        out, h_n = self.rnn(self.embed(src))
        return out, torch.cat([h_n[0], h_n[1]], dim=-1)


class Decoder(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig) -> None:
        super().__init__()
        self.embed = nn.Embedding(cfg.trg_vocab, cfg.emb_dim, padding_idx=cfg.pad_idx)
        self.bridge_h = nn.Linear(2 * cfg.hidden, cfg.hidden)
        self.bridge_c = nn.Linear(2 * cfg.hidden, cfg.hidden)
        self.rnn = nn.LSTM(cfg.emb_dim, cfg.hidden, batch_first=True)
        self.out = nn.Linear(cfg.hidden, cfg.trg_vocab)

    def forward(self, trg_in: torch.Tensor, summary: torch.Tensor) -> torch.Tensor:
        h0 = torch.tanh(self.bridge_h(summary)).unsqueeze(0)
        c0 = torch.tanh(self.bridge_c(summary)).unsqueeze(0)
        out, _ = self.rnn(self.embed(trg_in), (h0, c0))
        return self.out(out)


class Seq2Seq(nn.Module):
    def __init__(self, cfg: Seq2SeqConfig) -> None:
        super().__init__()
        self.encoder = Encoder(cfg)
        self.decoder = Decoder(cfg)

    def forward(self, src: torch.Tensor, trg: torch.Tensor) -> torch.Tensor:
        _, summary = self.encoder(src)
        return self.decoder(trg[:, :-1], summary)


def train_step(model: Seq2Seq, batch, optimizer, cfg: Seq2SeqConfig) -> float:
    src, trg = batch
    logits = model(src, trg)
    loss = nn.functional.cross_entropy(logits.reshape(-1, cfg.trg_vocab), trg[:, 1:].reshape(-1), ignore_index=cfg.pad_idx)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    cfg = Seq2SeqConfig()
    model = Seq2Seq(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    batch = (torch.randint(1, cfg.src_vocab, (8, 12)), torch.randint(1, cfg.trg_vocab, (8, 10)))
    for step in range(3):
        print(step, train_step(model, batch, optimizer, cfg))
