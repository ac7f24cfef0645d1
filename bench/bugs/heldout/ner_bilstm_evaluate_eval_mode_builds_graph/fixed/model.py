import torch.nn as nn


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab_size: int, num_labels: int, emb_dim: int = 50, hidden: int = 64, dropout: float = 0.3):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.dropout = nn.Dropout(dropout)
        self.lstm = nn.LSTM(emb_dim, hidden, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(2 * hidden, num_labels)

    def forward(self, tokens):
        h, _ = self.lstm(self.dropout(self.embedding(tokens)))
        return self.classifier(self.dropout(h))
