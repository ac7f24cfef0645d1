import torch.nn as nn


class SANBertNetwork(nn.Module):
    def __init__(self, vocab_size=100, hidden=32, n_labels=3, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden, padding_idx=0)
        layer = nn.TransformerEncoderLayer(hidden, 4, hidden * 2, dropout=dropout, batch_first=True)
        self.bert = nn.TransformerEncoder(layer, 1)
        self.dropout = nn.Dropout(dropout)
        self.scoring = nn.Linear(hidden, n_labels)

    def forward(self, input_ids, attention_mask):
        h = self.bert(self.embed(input_ids), src_key_padding_mask=attention_mask.eq(0))
        return self.scoring(self.dropout(h[:, 0]))
