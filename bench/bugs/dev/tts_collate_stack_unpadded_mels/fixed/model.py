import torch
import torch.nn as nn


class LengthRegulator(nn.Module):
    def forward(self, x, durations, max_len):
        out = []
        for seq, dur in zip(x, durations):
            expanded = torch.repeat_interleave(seq, dur, dim=0)
            out.append(nn.functional.pad(expanded, (0, 0, 0, max_len - expanded.shape[0])))
        return torch.stack(out)


class MiniFastSpeech(nn.Module):
    def __init__(self, vocab_size, dim, n_mels):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.regulator = LengthRegulator()
        self.mel_linear = nn.Linear(dim, n_mels)

    def forward(self, text, durations, max_mel_len):
        h, _ = self.encoder(self.embed(text))
        return self.mel_linear(self.regulator(h, durations, max_mel_len))
