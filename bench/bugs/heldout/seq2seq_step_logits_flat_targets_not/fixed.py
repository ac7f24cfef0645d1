import math
import time

import torch
import torch.nn as nn

PAD_IDX = 0
SRC_VOCAB, TRG_VOCAB = 40, 50


class Encoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True)

    def forward(self, src):
        _, hidden = self.rnn(self.embedding(src))
        return hidden


class Decoder(nn.Module):
    def __init__(self, vocab, emb_dim, hid_dim):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb_dim, padding_idx=PAD_IDX)
        self.rnn = nn.GRU(emb_dim, hid_dim, batch_first=True)
        self.fc_out = nn.Linear(hid_dim, vocab)

    def forward(self, trg, hidden):
        output, _ = self.rnn(self.embedding(trg), hidden)
        return self.fc_out(output)


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, src, trg):
        return self.decoder(trg, self.encoder(src))


def train(model, iterator, optimizer, criterion, clip):
    model.train()
    epoch_loss = 0
    for src, trg in iterator:
        optimizer.zero_grad()
        output = model(src, trg[:, :-1])
        # output = [batch size, trg len - 1, output dim]
        output_dim = output.shape[-1]
        output = output.contiguous().view(-1, output_dim)
        trg = trg[:, 1:].contiguous().view(-1)
        loss = criterion(output, trg)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        epoch_loss += loss.item()
    return epoch_loss / len(iterator)


def make_iterator(n_batches=3, batch_size=6, src_len=9, trg_len=11):
    return [
        (torch.randint(1, SRC_VOCAB, (batch_size, src_len)), torch.randint(1, TRG_VOCAB, (batch_size, trg_len)))
        for _ in range(n_batches)
    ]


if __name__ == "__main__":
    torch.manual_seed(1234)
    model = Seq2Seq(Encoder(SRC_VOCAB, 32, 64), Decoder(TRG_VOCAB, 32, 64))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD_IDX)
    train_iterator = make_iterator()
    for epoch in range(2):
        start = time.time()
        train_loss = train(model, train_iterator, optimizer, criterion, clip=1)
        print(f"Epoch {epoch + 1:02} | {time.time() - start:.2f}s | Train PPL {math.exp(train_loss):7.3f}")
