import torch
import torch.nn as nn


class TinyVLM(nn.Module):
    def __init__(self, img_dim: int = 24, vocab: int = 40, d: int = 32):
        super().__init__()
        self.vision_proj = nn.Linear(img_dim, d)
        self.tok = nn.Embedding(vocab, d)
        self.lm = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, images: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        prefix = self.vision_proj(images).unsqueeze(1)
        h, _ = self.lm(torch.cat([prefix, self.tok(tokens)], dim=1))
        return self.head(h[:, :-1])
