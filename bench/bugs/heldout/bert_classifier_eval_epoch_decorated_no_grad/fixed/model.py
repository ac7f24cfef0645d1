import torch.nn as nn


class TinyBertClassifier(nn.Module):
    def __init__(self, vocab_size=120, hidden=32, heads=4, layers=2, num_classes=2, dropout=0.1):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden, padding_idx=0)
        layer = nn.TransformerEncoderLayer(hidden, heads, dim_feedforward=64, dropout=dropout, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(hidden, num_classes)

    def forward(self, input_ids):
        padding = input_ids == 0
        h = self.encoder(self.word_embeddings(input_ids), src_key_padding_mask=padding)
        return self.classifier(self.dropout(h[:, 0]))
