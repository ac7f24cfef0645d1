import torch
from jaxtyping import Float, Int
from torch import Tensor, nn

VOCAB = 27
EMBED = 12
HIDDEN = 10


class CharRNN(nn.Module):
    """An Elman RNN written out step by step, with typed signatures for every step."""

    def __init__(self, vocab: int = VOCAB, embed: int = EMBED, hidden: int = HIDDEN) -> None:
        super().__init__()
        self.hidden = hidden
        self.embedding = nn.Embedding(vocab, embed)
        self.embedding_weights = nn.Linear(embed, hidden)
        self.hidden_state_weights = nn.Linear(hidden, hidden, bias=False)
        self.output_weights = nn.Linear(hidden, vocab)

    def update_hidden_state(
        self, embedding: Float[Tensor, "batch embedding"], hidden_state: Float[Tensor, "batch hidden"]
    ) -> Float[Tensor, "batch embedding"]:
        return torch.tanh(self.hidden_state_weights(hidden_state) + self.embedding_weights(embedding))

    def forward(self, tokens: Int[Tensor, "batch time"]) -> Float[Tensor, "batch time vocab"]:
        h = torch.zeros(tokens.size(0), self.hidden)
        logits = []
        for t in range(tokens.size(1)):
            h = self.update_hidden_state(self.embedding(tokens[:, t]), h)
            logits.append(self.output_weights(h))
        return torch.stack(logits, dim=1)


def train(steps: int = 3) -> None:
    model = CharRNN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    text = torch.randint(0, VOCAB, (4, 16))
    for step in range(steps):
        logits = model(text[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), text[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
