"""Character-level transliteration (Latin -> Cyrillic) with a bidirectional GRU encoder and a GRU decoder."""
import random

import torch
import torch.nn as nn

SRC_VOCAB, TRG_VOCAB, PAD, SOS = 30, 36, 0, 1


class Encoder(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64, dec_hidden=64):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hidden, dec_hidden)

    def forward(self, src):
        outputs, h = self.rnn(self.embedding(src))
        return outputs, torch.tanh(self.bridge(torch.cat([h[-2], h[-1]], dim=1))).unsqueeze(0)


class Decoder(nn.Module):
    def __init__(self, vocab, emb=32, hidden=64):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, token, hidden):
        output, hidden = self.rnn(self.embedding(token).unsqueeze(1), hidden)
        return self.out(output.squeeze(1)), hidden


class Transliterator(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder, self.decoder = Encoder(SRC_VOCAB), Decoder(TRG_VOCAB)

    def forward(self, src, trg, teacher_forcing=0.5):
        _, hidden = self.encoder(src)
        token, logits = trg[:, 0], []
        for t in range(1, trg.size(1)):
            step_logits, hidden = self.decoder(token, hidden)
            logits.append(step_logits)
            token = trg[:, t] if random.random() < teacher_forcing else step_logits.argmax(-1)
        return torch.stack(logits, dim=1)


def batch(n=16, src_len=10, trg_len=11):
    src = torch.randint(2, SRC_VOCAB, (n, src_len))
    trg = torch.cat([torch.full((n, 1), SOS), (src % (TRG_VOCAB - 2)) + 2], dim=1)[:, :trg_len]
    return src, trg


if __name__ == "__main__":
    random.seed(0)
    model = Transliterator()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    for step in range(10):
        src, trg = batch()
        logits = model(src, trg)
        loss = criterion(logits.reshape(-1, TRG_VOCAB), trg[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if step % 5 == 0:
            print(f"step {step} loss {loss.item():.3f}")
