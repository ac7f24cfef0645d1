from typing import TypeAlias

import torch
from jaxtyping import Float, Int
from torch import Tensor, nn

Logits: TypeAlias = Float[Tensor, "batch classes"]
Labels: TypeAlias = Int[Tensor, "batch"]


def top1(logits: Logits, labels: Labels) -> float:
    return (logits.argmax(dim=-1) == labels).float().mean().item()


class IntentTagger(nn.Module):
    """Predicts an intent for every token; the utterance label is the last token's."""

    def __init__(self, vocab: int = 600, dim: int = 32, intents: int = 7) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, intents)

    def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq 7"]:
        out, _ = self.rnn(self.embed(ids))
        return self.head(out)


if __name__ == "__main__":
    model = IntentTagger().eval()
    ids = torch.randint(0, 600, (5, 11))
    labels = torch.randint(0, 7, (5,))
    with torch.no_grad():
        logits = model(ids)
    print("top-1", top1(logits, labels))
