import logging

import torch
import torch.nn.functional as F

from config import MODEL, OPTIM
from models import RegionTextAligner, TextEncoder

logger = logging.getLogger(__name__)


def synthetic_batch(batch_size, g):
    tokens = torch.randint(1, MODEL["vocab_size"], (batch_size, 12), generator=g)
    tokens[:, 9:] = 0
    regions = torch.randn(batch_size, MODEL["region_dim"], generator=g)
    return tokens, regions


def contrastive_step(text_encoder: TextEncoder, aligner: RegionTextAligner, tokens, regions):
    text_feats = text_encoder(tokens)
    logits = aligner(text_feats, regions)
    targets = torch.arange(logits.shape[0])
    return (F.cross_entropy(logits, targets) + F.cross_entropy(logits.t(), targets)) / 2


def build():
    text_encoder = TextEncoder(vocab_size=MODEL["vocab_size"], width=MODEL["text_width"])
    aligner = RegionTextAligner(MODEL["text_width"], MODEL["region_dim"], MODEL["embed_dim"],
                                temperature=MODEL["temperature"])
    return text_encoder, aligner


def main():
    torch.manual_seed(0)
    text_encoder, aligner = build()
    params = list(text_encoder.parameters()) + list(aligner.parameters())
    opt = torch.optim.AdamW(params, lr=OPTIM["lr"], weight_decay=OPTIM["weight_decay"])
    g = torch.Generator().manual_seed(0)
    for step in range(OPTIM["steps"]):
        tokens, regions = synthetic_batch(OPTIM["batch_size"], g)
        loss = contrastive_step(text_encoder, aligner, tokens, regions)
        opt.zero_grad()
        loss.backward()
        opt.step()
        logger.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
