import random

import torch
import torch.nn as nn

from seq2seq.modules import Decoder, Encoder

SRC_VOCAB, TGT_VOCAB = 120, 80
EMB, HIDDEN = 16, 32
SOS = 1


def teacher_forced_loss(encoder: Encoder, decoder: Decoder, src, tgt, criterion, tf_ratio=0.5):
    _, hidden = encoder(src)
    token = torch.full((src.shape[1],), SOS, dtype=torch.long)
    loss = 0.0
    for t in range(tgt.shape[0]):
        logits, hidden = decoder(token, hidden)
        loss = loss + criterion(logits, tgt[t])
        token = tgt[t] if random.random() < tf_ratio else logits.argmax(-1)
    return loss / tgt.shape[0]


def main():
    random.seed(0)
    torch.manual_seed(0)
    encoder = Encoder(SRC_VOCAB, EMB, HIDDEN)
    decoder = Decoder(TGT_VOCAB, EMB, HIDDEN)
    params = list(encoder.parameters()) + list(decoder.parameters())
    opt = torch.optim.Adam(params, lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for step in range(2):
        src = torch.randint(2, SRC_VOCAB, (9, 4))
        tgt = torch.randint(2, TGT_VOCAB, (5, 4))
        loss = teacher_forced_loss(encoder, decoder, src, tgt, criterion)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
