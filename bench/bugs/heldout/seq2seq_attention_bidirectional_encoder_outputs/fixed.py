import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_out = nn.Linear(dim * 2, dim)

    def forward(self, output, context):
        attn = torch.bmm(output, context.transpose(1, 2))
        attn = F.softmax(attn, dim=-1)
        mix = torch.bmm(attn, context)
        combined = torch.cat((mix, output), dim=2)
        return torch.tanh(self.linear_out(combined)), attn


class EncoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, bidirectional=False):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True, bidirectional=bidirectional)

    def forward(self, src):
        outputs, hidden = self.rnn(self.embedding(src))
        return outputs, hidden


class DecoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.attention = Attention(hidden_size)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward(self, tgt_in, hidden, encoder_outputs):
        output, hidden = self.rnn(self.embedding(tgt_in), hidden)
        output, attn = self.attention(output, encoder_outputs)
        return F.log_softmax(self.out(output), dim=-1), hidden


def _cat_directions(h):
    return torch.cat([h[0::2], h[1::2]], dim=2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden_size", type=int, default=16)
    parser.add_argument("--bidirectional", type=bool, default=True)
    opt = parser.parse_args([])
    torch.manual_seed(0)
    encoder = EncoderRNN(40, opt.hidden_size, bidirectional=opt.bidirectional)
    decoder_hidden = opt.hidden_size * 2 if opt.bidirectional else opt.hidden_size
    decoder = DecoderRNN(30, decoder_hidden)
    params = list(encoder.parameters()) + list(decoder.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    for step in range(2):
        src, tgt = torch.randint(0, 40, (4, 9)), torch.randint(0, 30, (4, 7))
        encoder_outputs, encoder_hidden = encoder(src)
        hidden = _cat_directions(encoder_hidden) if opt.bidirectional else encoder_hidden
        logp, _ = decoder(tgt[:, :-1], hidden, encoder_outputs)
        loss = F.nll_loss(logp.reshape(-1, 30), tgt[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
