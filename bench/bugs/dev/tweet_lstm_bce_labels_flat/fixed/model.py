import torch
from torch import nn


class TweetClassifier(nn.Module):
    def __init__(self, vocab_size, embedding_dim=32, hidden_dim=64, lstm_layers=2):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, num_layers=lstm_layers, batch_first=True)
        self.dropout = nn.Dropout(0.5)
        self.fc1 = nn.Linear(hidden_dim, 32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        out, _ = self.lstm(self.embedding(x))
        out = self.dropout(torch.relu(self.fc1(out[:, -1, :])))
        return torch.sigmoid(self.fc2(out))
