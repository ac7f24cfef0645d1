import torch
from torch import nn


class TokenTagger(nn.Module):
    def __init__(self, vocab_size: int, num_labels: int, dim: int = 32) -> None:
        super().__init__()
        self.num_labels = num_labels
        self.embeddings = nn.Embedding(vocab_size, dim)
        self.encoder = nn.LSTM(dim, dim // 2, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask=None, labels=None):
        hidden, _ = self.encoder(self.embeddings(input_ids))
        logits = self.classifier(self.dropout(hidden))
        outputs = (logits,)
        if labels is not None:
            loss_fct = nn.CrossEntropyLoss()
            if attention_mask is not None:
                active = attention_mask.view(-1) == 1
                active_logits = logits.view(-1, self.num_labels)[active]
                active_labels = labels.view(-1)[active]
                loss = loss_fct(active_logits, active_labels)
            else:
                loss = loss_fct(logits.view(-1, self.num_labels), labels.view(-1))
            outputs = (loss,) + outputs
        return outputs
