import torch
import torch.nn as nn
import torch.nn.functional as F


class NewsClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim=100, hidden_dim=128, n_classes=4, dropout=0.3):
        super(NewsClassifier, self).__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.rnn = nn.LSTM(embed_dim, hidden_dim, num_layers=1, bidirectional=True, batch_first=True)
        self.dropout = nn.Dropout(dropout)
        self.fc = nn.Linear(hidden_dim, n_classes)

    def forward(self, text):
        embedded = self.dropout(self.embedding(text))
        output, (hidden, cell) = self.rnn(embedded)
        last = output[:, -1, :]
        return self.fc(self.dropout(last))


model = NewsClassifier(vocab_size=5000)
optimizer = torch.optim.Adam(model.parameters())
text = torch.randint(1, 5000, (6, 30))
label = torch.randint(0, 4, (6,))
predictions = model(text)
loss = F.cross_entropy(predictions, label)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
