import torch
import torch.nn as nn
import torch.nn.functional as F


class AttLSTMClassifier(nn.Module):
    """Log-sequence classifier: BiLSTM over event embeddings, attention pooling, normal/anomalous head."""

    def __init__(self, vocab_size, config):
        super().__init__()
        net = config["Network"]
        self.hidden_size = net.getint("lstm_hiddens")
        self.num_directions = 2 if net.getboolean("bidirectional") else 1
        self.embed = nn.Embedding(vocab_size, net.getint("word_dims"), padding_idx=0)
        self.rnn = nn.LSTM(net.getint("word_dims"), self.hidden_size, num_layers=net.getint("lstm_layers"),
                           batch_first=True, bidirectional=net.getboolean("bidirectional"))
        out_dim = self.hidden_size * self.num_directions
        self.proj = nn.Linear(out_dim, out_dim)
        self.atten_guide = nn.Parameter(torch.randn(out_dim))
        self.dropout = nn.Dropout(net.getfloat("dropout"))
        self.out = nn.Linear(out_dim, 2)

    def forward(self, events, masks):
        hiddens, _ = self.rnn(self.dropout(self.embed(events)))
        scores = torch.tanh(self.proj(hiddens)) @ self.atten_guide
        scores = scores.masked_fill(masks == 0, -1e9)
        sent_probs = F.softmax(scores, dim=1).unsqueeze(-1).expand(-1, -1, self.hidden_size * self.num_directions)
        represents = hiddens * sent_probs
        return self.out(represents.sum(dim=1))
