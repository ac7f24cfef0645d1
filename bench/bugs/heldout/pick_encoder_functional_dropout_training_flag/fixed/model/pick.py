import torch.nn as nn

from .encoder import Encoder


class PICKModel(nn.Module):
    def __init__(self, vocab_size=60, num_tags=5, dim=32):
        super().__init__()
        self.word_emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.encoder = Encoder(char_embedding_dim=dim, out_dim=dim)
        self.decoder = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, num_tags))

    def forward(self, whole_image, boxes_images, text_segments, mask):
        x = self.encoder(whole_image, boxes_images, self.word_emb(text_segments), mask == 0)
        return self.decoder(x)
