import torch.nn as nn


class _Encoder(nn.Module):
    def __init__(self, vocab_size, dim, heads=4, layers=1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        layer = nn.TransformerEncoderLayer(dim, heads, dim * 2, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)

    def forward(self, input_ids):
        return self.encoder(self.embed(input_ids), src_key_padding_mask=input_ids.eq(0))


class SentenceClassifier(nn.Module):
    """One label per sequence, read from the first position."""

    def __init__(self, vocab_size, num_labels, dim=32):
        super().__init__()
        self.body = _Encoder(vocab_size, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        return self.classifier(self.body(input_ids)[:, 0])


class TokenTagger(nn.Module):
    """One label per token."""

    def __init__(self, vocab_size, num_labels, dim=32):
        super().__init__()
        self.body = _Encoder(vocab_size, dim)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        return self.classifier(self.dropout(self.body(input_ids)))
