import torch
import torch.nn as nn

from .layers import DecoderLayer


class CaptioningTransformer(nn.Module):
    def __init__(self, feat_dim, vocab_size, dim=32, heads=4, max_len=16):
        super().__init__()
        self.visual_proj = nn.Linear(feat_dim, dim)
        self.embedding = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layer = DecoderLayer(dim, heads)
        self.output = nn.Linear(dim, vocab_size)

    def forward(self, region_feats, captions, grounding):
        _, num_words = captions.shape
        memory = self.visual_proj(region_feats)
        tgt = self.embedding(captions) + self.pos(torch.arange(num_words))
        causal = torch.tril(torch.ones(num_words, num_words))
        return self.output(self.layer(tgt, memory, causal, grounding))
