import torch
from torch import nn


class LSTMClassifier(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.embedding = nn.Embedding(opt.vocab_size, opt.embedding_dim, padding_idx=0)
        self.lstm = nn.LSTM(opt.embedding_dim, opt.hidden_dim, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(opt.keep_dropout)
        self.fc = nn.Linear(2 * opt.hidden_dim, opt.label_size)

    def forward(self, tokens):
        embedded = self.embedding(tokens)
        output, (h_n, _) = self.lstm(embedded)
        final = torch.cat([h_n[-2], h_n[-1]], dim=1)
        return self.fc(self.dropout(final))
