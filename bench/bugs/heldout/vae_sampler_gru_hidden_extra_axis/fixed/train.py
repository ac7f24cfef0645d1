import argparse
import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from config import VAEConfig
from model import SentenceVAE

logger = logging.getLogger("ptb_vae")


def kl_anneal(step, k=0.0025, x0=2500):
    return float(1 / (1 + torch.exp(torch.tensor(-k * (step - x0)))))


def loss_fn(logp, target, mean, logv, step):
    nll = F.nll_loss(logp.reshape(-1, logp.size(-1)), target.reshape(-1), ignore_index=0, reduction="sum")
    kl = -0.5 * torch.sum(1 + logv - mean.pow(2) - logv.exp())
    return nll, kl, kl_anneal(step)


def main(args):
    torch.manual_seed(args.seed)
    cfg = VAEConfig()
    model = SentenceVAE(cfg.vocab_size, cfg.embedding_size, cfg.hidden_size, cfg.latent_size,
                        num_layers=cfg.num_layers, bidirectional=cfg.bidirectional)
    tokens = torch.randint(3, cfg.vocab_size, (32, cfg.max_sequence_length))
    loader = DataLoader(TensorDataset(tokens), batch_size=cfg.batch_size, shuffle=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.learning_rate)

    step = 0
    for epoch in range(cfg.epochs):
        model.train()
        for (batch,) in loader:
            logp, mean, logv = model(batch)
            nll, kl, kl_weight = loss_fn(logp, batch, mean, logv, step)
            loss = (nll + kl_weight * kl) / batch.size(0)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
        logger.info("epoch %d loss %.3f", epoch, loss.item())

    model.eval()
    samples, _ = model.inference(n=cfg.num_samples)
    print("samples", samples.shape)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    main(parser.parse_args())
