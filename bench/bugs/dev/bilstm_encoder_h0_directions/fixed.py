import torch
import torch.nn as nn


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size=2000, embed_dim=50, hidden_size=32, num_layers=2):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden_size, num_layers=num_layers, batch_first=True, bidirectional=True)

    def forward(self, tokens):
        batch_size = tokens.size(0)
        h0 = tokens.new_zeros(2 * self.num_layers, batch_size, self.hidden_size, dtype=torch.float)
        c0 = tokens.new_zeros(2 * self.num_layers, batch_size, self.hidden_size, dtype=torch.float)
        output, (h_n, c_n) = self.lstm(self.embed(tokens), (h0, c0))
        return output, h_n


encoder = SentenceEncoder()
tokens = torch.randint(0, 2000, (3, 17))
output, h_n = encoder(tokens)
print(output.shape, h_n.shape)
