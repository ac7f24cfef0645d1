import logging
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

logger = logging.getLogger(__name__)


@dataclass
class RetrieverConfig:
    vocab_size: int = 100
    hidden: int = 48
    proj_dim: int = 32
    n_context: int = 5
    temperature: float = 0.1


class MeanPoolEncoder(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden, padding_idx=0)
        self.ffn = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU())

    def forward(self, ids):
        mask = (ids != 0).unsqueeze(-1).float()
        h = self.ffn(self.embed(ids))
        return (h * mask).sum(1) / mask.sum(1).clamp(min=1)


class DualEncoderRetriever(nn.Module):
    def __init__(self, cfg: RetrieverConfig):
        super().__init__()
        self.cfg = cfg
        self.encoder = MeanPoolEncoder(cfg.vocab_size, cfg.hidden)
        self.query_proj = nn.Linear(cfg.hidden, cfg.proj_dim)
        self.passage_proj = nn.Linear(cfg.hidden, cfg.hidden)

    def forward(self, query_ids, passage_ids):
        bsz, n_context, plen = passage_ids.shape
        query_emb = self.query_proj(self.encoder(query_ids))
        passage_emb = self.passage_proj(self.encoder(passage_ids.view(bsz * n_context, plen)))
        passage_emb = passage_emb.view(bsz, n_context, -1)
        scores = torch.einsum("id,ijd->ij", query_emb, passage_emb)
        return scores / self.cfg.temperature


def distillation_loss(retriever_scores, reader_scores):
    return F.kl_div(F.log_softmax(retriever_scores, dim=-1), F.softmax(reader_scores, dim=-1), reduction="batchmean")


def main():
    torch.manual_seed(0)
    cfg = RetrieverConfig()
    retriever = DualEncoderRetriever(cfg)
    optimizer = torch.optim.AdamW(retriever.parameters(), lr=1e-4)
    for step in range(2):
        query_ids = torch.randint(1, cfg.vocab_size, (4, 8))
        passage_ids = torch.randint(0, cfg.vocab_size, (4, cfg.n_context, 12))
        reader_scores = torch.randn(4, cfg.n_context)
        loss = distillation_loss(retriever(query_ids, passage_ids), reader_scores)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        logger.warning("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
