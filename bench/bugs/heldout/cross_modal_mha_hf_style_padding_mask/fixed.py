import torch
from torch import nn


class CaptionScorer(nn.Module):
    def __init__(self, vocab: int = 1000, dim: int = 64, heads: int = 8) -> None:
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.cross = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.score = nn.Linear(dim, 1)

    def forward(self, image_regions: torch.Tensor, caption_ids: torch.Tensor, attention_mask: torch.Tensor):
        words = self.tok(caption_ids)
        extended = (1 - attention_mask).bool()
        fused, _ = self.cross(image_regions, words, words, key_padding_mask=extended)
        return self.score(fused.mean(dim=1)).squeeze(-1)


if __name__ == "__main__":
    model = CaptionScorer()
    regions = torch.randn(2, 36, 64)
    ids = torch.randint(0, 1000, (2, 12))
    attention_mask = torch.ones(2, 12, dtype=torch.long)
    attention_mask[1, 8:] = 0
    print(model(regions, ids, attention_mask))
