import torch.nn as nn


class ConvTagger(nn.Module):
    """Token embeddings, two dilated 1-D convolutions over the sentence, and a per-token tag projection."""

    def __init__(self, vocab_size, num_tags, embedding_dim=32, hidden_dim=64, dropout=0.2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.encoder = nn.Sequential(
            nn.Conv1d(embedding_dim, hidden_dim, 3, padding=1), nn.GELU(),
            nn.Conv1d(hidden_dim, hidden_dim, 3, padding=2, dilation=2), nn.GELU(),
        )
        self.dropout = nn.Dropout(dropout)
        self.tag_projection = nn.Linear(hidden_dim, num_tags)

    def forward(self, tokens):
        encoded = self.encoder(self.embed(tokens).transpose(1, 2)).transpose(1, 2)
        return self.tag_projection(self.dropout(encoded))
