import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab: int, emb: int, hidden: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)

    def forward(self, src: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        outputs, h_n = self.rnn(self.embedding(src))
        # the decoder is unidirectional: merge the two directions of the final state
        state = (h_n[0] + h_n[1]).unsqueeze(0)
        return outputs, state


class DotAttention(nn.Module):
    def forward(self, query: torch.Tensor, memory: torch.Tensor, pad: torch.Tensor) -> torch.Tensor:
        scores = torch.bmm(memory, query.unsqueeze(2)).squeeze(2)
        scores = scores.masked_fill(pad, float("-inf"))
        weights = scores.softmax(dim=1)
        return torch.bmm(weights.unsqueeze(1), memory).squeeze(1)


class Decoder(nn.Module):
    def __init__(self, vocab: int, emb: int, hidden: int, memory_dim: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=0)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.attention = DotAttention()
        self.out = nn.Linear(hidden + memory_dim, vocab)

    def step(self, token: torch.Tensor, state: torch.Tensor, memory: torch.Tensor, pad: torch.Tensor):
        output, state = self.rnn(self.embedding(token).unsqueeze(1), state)
        query = output.squeeze(1)
        context = self.attention(query, memory, pad)
        return self.out(torch.cat([query, context], dim=1)), state
