import torch
import torch.nn as nn


class Biaffine(nn.Module):
    def __init__(self, in_size: int, out_size: int, bias_x: bool = True, bias_y: bool = True):
        super().__init__()
        self.bias_x, self.bias_y = bias_x, bias_y
        self.U = nn.Parameter(torch.randn(in_size + int(bias_x), out_size, in_size + int(bias_y)) * 0.02)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        if self.bias_x:
            x = torch.cat((x, torch.ones_like(x[..., :1])), dim=-1)
        if self.bias_y:
            y = torch.cat((y, torch.ones_like(y[..., :1])), dim=-1)
        return torch.einsum("bxi,ioj,byj->bxyo", x, self.U, y)


class SpanNER(nn.Module):
    def __init__(self, vocab_size: int = 300, hidden: int = 32, biaffine_size: int = 24, num_labels: int = 5):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True, bidirectional=True)
        self.start_ffn = nn.Sequential(nn.Linear(2 * hidden, biaffine_size), nn.ReLU())
        self.end_ffn = nn.Sequential(nn.Linear(2 * hidden, biaffine_size), nn.ReLU())
        self.biaffine = Biaffine(biaffine_size, num_labels)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        h, _ = self.encoder(self.embed(tokens))
        return self.biaffine(self.start_ffn(h), self.end_ffn(h))
