import torch
from torch import nn
from torch.nn import functional as F


class KimCNN(nn.Module):
    def __init__(self, opt, kernel_sizes=(2, 3, 4), n_filters=16):
        super().__init__()
        self.embedding = nn.Embedding(opt.vocab_size, opt.embedding_dim, padding_idx=0)
        self.convs = nn.ModuleList([nn.Conv1d(opt.embedding_dim, n_filters, k) for k in kernel_sizes])
        self.dropout = nn.Dropout(opt.keep_dropout)
        self.fc = nn.Linear(n_filters * len(kernel_sizes), opt.label_size)

    def forward(self, tokens):
        x = self.embedding(tokens).transpose(1, 2)
        pooled = [F.relu(conv(x)).max(dim=2).values for conv in self.convs]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))
