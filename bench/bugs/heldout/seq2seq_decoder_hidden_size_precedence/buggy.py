import argparse
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, bidirectional=False):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True, bidirectional=bidirectional)

    def forward(self, src):
        return self.rnn(self.embedding(src))


class DecoderRNN(nn.Module):
    def __init__(self, vocab_size, hidden_size, sos_id=1):
        super().__init__()
        self.sos_id = sos_id
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.rnn = nn.GRU(hidden_size, hidden_size, batch_first=True)
        self.out = nn.Linear(hidden_size, vocab_size)

    def forward_step(self, token, hidden):
        output, hidden = self.rnn(self.embedding(token), hidden)
        return F.log_softmax(self.out(output.squeeze(1)), dim=-1), hidden


class Seq2seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, tgt, teacher_forcing_ratio=0.5):
        _, hidden = self.encoder(src)
        token = torch.full((src.size(0), 1), self.decoder.sos_id, dtype=torch.long)
        outputs = []
        for t in range(tgt.size(1)):
            step_logp, hidden = self.decoder.forward_step(token, hidden)
            outputs.append(step_logp)
            use_teacher = random.random() < teacher_forcing_ratio
            token = tgt[:, t:t + 1] if use_teacher else step_logp.argmax(-1, keepdim=True)
        return torch.stack(outputs, dim=1)


def build_model(opt):
    encoder = EncoderRNN(opt.src_vocab, opt.hidden_size, bidirectional=opt.bidirectional)
    decoder_hidden = opt.hidden_size * 2 if opt.bidirectional else 1
    decoder = DecoderRNN(opt.tgt_vocab, decoder_hidden)
    return Seq2seq(encoder, decoder)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--src_vocab", type=int, default=50)
    parser.add_argument("--tgt_vocab", type=int, default=40)
    parser.add_argument("--hidden_size", type=int, default=32)
    parser.add_argument("--bidirectional", action="store_true")
    parser.add_argument("--steps", type=int, default=3)
    opt = parser.parse_args([])
    torch.manual_seed(0)
    random.seed(0)

    model = build_model(opt)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    src = torch.randint(3, opt.src_vocab, (16, 9))
    tgt = torch.randint(3, opt.tgt_vocab, (16, 7))
    for step in range(opt.steps):
        logp = model(src, tgt)
        loss = F.nll_loss(logp.reshape(-1, opt.tgt_vocab), tgt.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
