import torch
from torch import nn

from .heads import build_head


class MiniEncoder(nn.Module):
    """A one-layer stand-in for the pretrained BERT encoder: embeddings plus a transformer layer."""

    def __init__(self, vocab_size, hidden_size, num_heads, max_len):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden_size, padding_idx=0)
        self.position_embeddings = nn.Embedding(max_len, hidden_size)
        self.layer = nn.TransformerEncoderLayer(hidden_size, num_heads, 4 * hidden_size, batch_first=True)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1)).unsqueeze(0)
        hidden = self.word_embeddings(input_ids) + self.position_embeddings(positions)
        return self.layer(hidden, src_key_padding_mask=attention_mask == 0)


class BertClassifier(nn.Module):
    def __init__(self, vocab_size=200, hidden_size=32, num_heads=4, max_len=24, num_labels=5, dropout=0.1):
        super().__init__()
        self.bert = MiniEncoder(vocab_size, hidden_size, num_heads, max_len)
        self.classifier = build_head(hidden_size, num_labels, dropout)

    def forward(self, input_ids, attention_mask):
        hidden = self.bert(input_ids, attention_mask)
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1.0)
        return self.classifier(pooled)
