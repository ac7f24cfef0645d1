import torch
import torch.nn as nn


class RNN(nn.Module):
    """Character-level name generator conditioned on the language category."""

    def __init__(self, input_size, hidden_size, embedding_size, n_categories, n_layers, output_size, p=0.1):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, embedding_size)
        self.lstm = nn.LSTM(embedding_size + n_categories, hidden_size, n_layers, dropout=p, batch_first=True)
        self.out_fc = nn.Linear(hidden_size, output_size)
        self.dropout = nn.Dropout(p)

    def forward(self, categories, letters):
        embedded = self.dropout(self.embedding(letters))
        categories = categories.unsqueeze(1).expand(-1, letters.size(1), -1)
        hidden = torch.zeros(self.n_layers, letters.size(0), self.hidden_size, device=letters.device)
        cell = torch.zeros(self.n_layers, letters.size(0), self.hidden_size, device=letters.device)
        output, _ = self.lstm(torch.cat((categories, embedded), dim=2), (hidden, cell))
        return self.out_fc(self.dropout(output))

    def training_step(self, batch):
        categories, letters, targets = batch
        logits = self(categories, letters)
        return self.criterion(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
