import torch.nn as nn


class TokenTagger(nn.Module):
    def __init__(self, vocab_size, n_labels, dim=32, dropout=0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.encoder = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(2 * dim, n_labels)

    def forward(self, input_ids):
        hidden, _ = self.encoder(self.embed(input_ids))
        return self.classifier(self.dropout(hidden))
