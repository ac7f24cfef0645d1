from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class TaggerConfig:
    vocab_size: int = 300
    hidden: int = 48
    attributes: tuple = ("founded", "location", "population")


class MultiAttributeTagger(nn.Module):
    """One IOB head (3 tags) per attribute over a shared encoder."""

    def __init__(self, cfg: TaggerConfig) -> None:
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden)
        self.encoder = nn.GRU(cfg.hidden, cfg.hidden, batch_first=True)
        self.heads = nn.ModuleList(nn.Linear(cfg.hidden, 3) for _ in cfg.attributes)

    def forward(self, input_ids: torch.Tensor, labels: torch.Tensor = None):
        hidden, _ = self.encoder(self.embed(input_ids))
        logits = [head(hidden) for head in self.heads]
        if labels is None:
            return logits
        loss_fct = nn.CrossEntropyLoss()
        loss = 0.0
        for logit, label in zip(logits, labels):
            loss += loss_fct(logit.view(-1, 3), label.view(-1)) / len(logits)
        return loss, logits


def train(cfg: TaggerConfig, steps: int = 3) -> None:
    model = MultiAttributeTagger(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    input_ids = torch.randint(0, cfg.vocab_size, (4, 16))
    # one tag sequence per attribute: (batch, attributes, tokens)
    labels = torch.randint(0, 3, (4, len(cfg.attributes), 16))
    for step in range(steps):
        loss, _ = model(input_ids, labels=labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, float(loss))


if __name__ == "__main__":
    train(TaggerConfig())
