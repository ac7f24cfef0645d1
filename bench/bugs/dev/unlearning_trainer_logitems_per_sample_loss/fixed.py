from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class UnlearnArgs:
    vocab: int = 40
    dim: int = 24
    seq_len: int = 10
    batch_size: int = 2
    retain_weight: float = 1.0
    steps: int = 2


class TinyLM(nn.Module):
    def __init__(self, args: UnlearnArgs) -> None:
        super().__init__()
        self.emb = nn.Embedding(args.vocab, args.dim)
        self.rnn = nn.GRU(args.dim, args.dim, batch_first=True)
        self.lm_head = nn.Linear(args.dim, args.vocab)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        hidden, _ = self.rnn(self.emb(input_ids))
        return self.lm_head(hidden)


def sequence_nll(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    token_loss = F.cross_entropy(logits[:, :-1].transpose(1, 2), labels[:, 1:], reduction="none")
    return token_loss.mean(dim=1)


class UnlearnTrainer:
    def __init__(self, model: TinyLM, args: UnlearnArgs) -> None:
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.log_history = []

    def compute_loss(self, forget_ids: torch.Tensor, retain_ids: torch.Tensor) -> torch.Tensor:
        forget_loss = -sequence_nll(self.model(forget_ids), forget_ids)
        retain_loss = sequence_nll(self.model(retain_ids), retain_ids)
        loss = forget_loss + self.args.retain_weight * retain_loss
        logitems = {
            "trainloss/forget": forget_loss.mean().item(),
            "trainloss/retain": retain_loss.mean().item(),
            "trainloss/loss": loss.mean().item(),
        }
        self.log_history.append(logitems)
        return loss.mean()

    def train(self) -> None:
        a = self.args
        for step in range(a.steps):
            forget = torch.randint(0, a.vocab, (a.batch_size, a.seq_len))
            retain = torch.randint(0, a.vocab, (a.batch_size, a.seq_len))
            loss = self.compute_loss(forget, retain)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            print(step, self.log_history[-1])


if __name__ == "__main__":
    args = UnlearnArgs()
    UnlearnTrainer(TinyLM(args), args).train()
