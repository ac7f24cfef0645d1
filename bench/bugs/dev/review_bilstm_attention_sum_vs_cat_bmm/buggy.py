import torch
import torch.nn as nn
import torch.nn.functional as F


class BiLSTMAttentionClassifier(nn.Module):
    def __init__(self, vocab_size, emb_dim=32, hidden_dim=24, n_classes=3):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(hidden_dim, n_classes)

    def attention(self, lstm_out, final_hidden):
        scores = torch.bmm(lstm_out, final_hidden.unsqueeze(2)).squeeze(2)
        weights = F.softmax(scores, dim=1)
        context = torch.bmm(weights.unsqueeze(1), lstm_out).squeeze(1)
        return context, weights

    def forward(self, tokens):
        out, (h_n, _) = self.lstm(self.embedding(tokens))
        out = out[:, :, :self.hidden_dim] + out[:, :, self.hidden_dim:]
        final_hidden = torch.cat([h_n[-2], h_n[-1]], dim=1)
        context, _ = self.attention(out, final_hidden)
        return self.fc(context)


def main():
    torch.manual_seed(0)
    model = BiLSTMAttentionClassifier(vocab_size=200)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        tokens = torch.randint(1, 200, (4, 15))
        labels = torch.randint(0, 3, (4,))
        loss = F.cross_entropy(model(tokens), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
