import torch
import torch.nn as nn
import torch.nn.functional as F


class LuongAttention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.attn = nn.Linear(hidden_size, hidden_size)

    def forward(self, hidden, encoder_outputs):
        # hidden: (B, H), encoder_outputs: (T, B, H)
        energy = self.attn(encoder_outputs).transpose(0, 1)
        scores = torch.bmm(energy, hidden.unsqueeze(2)).squeeze(2)
        return F.softmax(scores, dim=1)


class AttnDecoder(nn.Module):
    def __init__(self, hidden_size=32, vocab=200):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden_size)
        self.gru = nn.GRU(2 * hidden_size, hidden_size)
        self.attention = LuongAttention(hidden_size)
        self.out = nn.Linear(2 * hidden_size, vocab)

    def forward(self, token, last_hidden, encoder_outputs):
        embedded = self.embed(token).unsqueeze(0)
        attn_weights = self.attention(last_hidden[-1], encoder_outputs)
        context = attn_weights.unsqueeze(1).bmm(encoder_outputs.transpose(0, 1))
        context = context.transpose(0, 1)
        output, hidden = self.gru(torch.cat([embedded, context], 2), last_hidden)
        logits = self.out(torch.cat([output.squeeze(0), context.squeeze(0)], 1))
        return F.log_softmax(logits, dim=1), hidden, attn_weights


decoder = AttnDecoder()
encoder_outputs = torch.randn(9, 4, 32)
hidden = torch.zeros(1, 4, 32)
token = torch.zeros(4, dtype=torch.long)
log_probs, hidden, weights = decoder(token, hidden, encoder_outputs)
print(log_probs.shape)
