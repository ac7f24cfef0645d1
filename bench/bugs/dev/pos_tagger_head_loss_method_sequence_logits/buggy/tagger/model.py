import torch
import torch.nn as nn

from tagger.heads import TokenClassificationHead


class BiGRUTagger(nn.Module):
    def __init__(self, vocab_size: int, num_tags: int, emb_dim: int = 48, hidden: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.rnn = nn.GRU(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.head = TokenClassificationHead(2 * hidden, num_tags)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        states, _ = self.rnn(self.embed(tokens))
        return self.head(states)
