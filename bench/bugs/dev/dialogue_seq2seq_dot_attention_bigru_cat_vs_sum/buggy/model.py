import torch
import torch.nn as nn

from modules import Decoder, Encoder

PAD, BOS = 0, 1


class ResponseGenerator(nn.Module):
    def __init__(self, vocab: int = 200, emb: int = 32, hidden: int = 48) -> None:
        super().__init__()
        self.encoder = Encoder(vocab, emb, hidden)
        self.decoder = Decoder(vocab, emb, hidden, memory_dim=2 * hidden)

    def forward(self, src: torch.Tensor, tgt: torch.Tensor) -> torch.Tensor:
        memory, state = self.encoder(src)
        pad = src.eq(PAD)
        token = torch.full((src.size(0),), BOS, dtype=torch.long)
        logits = []
        for t in range(tgt.size(1)):
            step_logits, state = self.decoder.step(token, state, memory, pad)
            logits.append(step_logits)
            token = tgt[:, t]
        return torch.stack(logits, dim=1)
