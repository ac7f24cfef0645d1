import random

import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, hid_dim, n_layers):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim, n_layers, bidirectional=True)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embedding(src))
        return outputs, hidden


class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, hid_dim, n_layers):
        super().__init__()
        self.output_dim = output_dim
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.GRU(emb_dim, hid_dim, n_layers)
        self.fc_out = nn.Linear(hid_dim, output_dim)

    def forward(self, token, hidden):
        output, hidden = self.rnn(self.embedding(token.unsqueeze(0)), hidden)
        return self.fc_out(output.squeeze(0)), hidden


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        trg_len, batch_size = trg.shape
        outputs = torch.zeros(trg_len, batch_size, self.decoder.output_dim)
        _, hidden = self.encoder(src)
        token = trg[0, :]
        for t in range(1, trg_len):
            output, hidden = self.decoder(token, hidden)
            outputs[t] = output
            token = trg[t] if random.random() < teacher_forcing_ratio else output.argmax(1)
        return outputs


enc = Encoder(input_dim=120, emb_dim=16, hid_dim=32, n_layers=2)
dec = Decoder(output_dim=150, emb_dim=16, hid_dim=32, n_layers=2)
model = Seq2Seq(enc, dec)
src = torch.randint(0, 120, (9, 4))
trg = torch.randint(0, 150, (7, 4))
out = model(src, trg)
print(out.shape)
