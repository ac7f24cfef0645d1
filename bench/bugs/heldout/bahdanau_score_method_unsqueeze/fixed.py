import torch
from torch import nn


class AdditiveAttention(nn.Module):
    def __init__(self, enc_dim, dec_dim, attn_dim=32):
        super().__init__()
        self.W = nn.Linear(dec_dim, attn_dim, bias=False)
        self.U = nn.Linear(enc_dim, attn_dim, bias=False)
        self.v = nn.Linear(attn_dim, 1, bias=False)

    def score(self, dec_hidden, enc_outputs):
        return self.v(torch.tanh(self.W(dec_hidden).unsqueeze(1) + self.U(enc_outputs))).squeeze(-1)

    def forward(self, dec_hidden, enc_outputs, src_mask):
        energy = self.score(dec_hidden, enc_outputs)
        energy = energy.masked_fill(src_mask == 0, -1e9)
        weights = torch.softmax(energy, dim=1)
        context = torch.bmm(weights.unsqueeze(1), enc_outputs).squeeze(1)
        return context, weights


class Decoder(nn.Module):
    def __init__(self, vocab=400, emb=24, enc_dim=40, hid=40):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.attention = AdditiveAttention(enc_dim, hid)
        self.rnn = nn.GRUCell(emb + enc_dim, hid)
        self.out = nn.Linear(hid, vocab)

    def forward(self, token, hidden, enc_outputs, src_mask):
        context, _ = self.attention(hidden, enc_outputs, src_mask)
        hidden = self.rnn(torch.cat([self.embedding(token), context], dim=1), hidden)
        return self.out(hidden), hidden


if __name__ == "__main__":
    batch, src_len = 4, 7
    decoder = Decoder()
    enc_outputs = torch.randn(batch, src_len, 40)
    src_mask = torch.ones(batch, src_len)
    hidden = torch.zeros(batch, 40)
    token = torch.zeros(batch, dtype=torch.long)
    for _ in range(3):
        logits, hidden = decoder(token, hidden, enc_outputs, src_mask)
        token = logits.argmax(-1)
    print(token)
