import logging

import torch
import torch.nn.functional as F

from config import EmbedderConfig, TrainConfig
from model import SpeakerEmbedder

log = logging.getLogger("speaker")


def synthetic_batch(cfg: EmbedderConfig, tcfg: TrainConfig) -> tuple[torch.Tensor, torch.Tensor]:
    feats = torch.randn(tcfg.batch_size, tcfg.frames, cfg.n_mels)
    speakers = torch.randint(0, cfg.n_speakers, (tcfg.batch_size,))
    return feats, speakers


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    cfg, tcfg = EmbedderConfig(), TrainConfig()
    torch.manual_seed(tcfg.seed)
    model = SpeakerEmbedder(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=tcfg.lr)
    for step in range(tcfg.steps):
        feats, speakers = synthetic_batch(cfg, tcfg)
        logits = model(feats)
        loss = F.cross_entropy(logits, speakers)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.info("step %d loss %.4f", step, loss.item())


if __name__ == "__main__":
    main()
