import torch.nn as nn


class PunctuationTagger(nn.Module):
    """Predicts the punctuation mark after every token: none, comma, period, question mark."""

    def __init__(self, vocab_size: int, n_marks: int = 4, emb: int = 32, hidden: int = 32):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, emb, padding_idx=0)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_marks)

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        return self.out(h)
