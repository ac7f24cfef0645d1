import argparse
import math
import time

import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers

    def forward(self, inp, hidden):
        output, hidden = self.rnn(self.drop(self.encoder(inp)), hidden)
        return self.decoder(self.drop(output)), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].reshape(-1)


def train(model, train_data, args, ntokens, criterion):
    model.train()
    total_loss = 0.0
    start_time = time.time()
    hidden = model.init_hidden(args.batch_size)
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args.bptt)):
        data, targets = get_batch(train_data, i, args.bptt)
        hidden = repackage_hidden(hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output.view(-1, ntokens), targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
        for p in model.parameters():
            p.add_(p.grad, alpha=-args.lr)
        total_loss += loss.item()
    elapsed = time.time() - start_time
    print(f"loss {total_loss / (batch + 1):5.2f} | ppl {math.exp(total_loss / (batch + 1)):8.2f} | {elapsed:.2f}s")


def main():
    parser = argparse.ArgumentParser(description="word-level language model")
    parser.add_argument("--lr", type=float, default=20)
    parser.add_argument("--clip", type=float, default=0.25)
    parser.add_argument("--bptt", type=int, default=8)
    parser.add_argument("--batch_size", type=int, default=4)
    args = parser.parse_args([])
    torch.manual_seed(1111)
    ntokens = 50
    corpus = torch.randint(0, ntokens, (200,))
    nbatch = corpus.size(0) // args.batch_size
    train_data = corpus[: nbatch * args.batch_size].view(args.batch_size, -1).t().contiguous()
    model = RNNModel(ntokens, 16, 16, 2)
    train(model, train_data, args, ntokens, nn.CrossEntropyLoss())


if __name__ == "__main__":
    main()
