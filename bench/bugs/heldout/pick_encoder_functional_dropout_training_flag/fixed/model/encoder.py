import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    """Fuses each text segment's token embeddings with its image crop features (PICK-style document encoder)."""

    def __init__(self, char_embedding_dim=32, out_dim=32, image_feature_dim=16, nheaders=4, dropout=0.1):
        super().__init__()
        self.dropout = dropout
        self.cnn = nn.Sequential(nn.Conv2d(3, image_feature_dim, 3, stride=2, padding=1), nn.BatchNorm2d(image_feature_dim),
                                 nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.conv = nn.Conv2d(image_feature_dim, out_dim, 1)
        layer = nn.TransformerEncoderLayer(char_embedding_dim, nheaders, char_embedding_dim * 2, dropout=dropout,
                                           batch_first=True)
        self.transformer_encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.norm = nn.LayerNorm(out_dim)

    def forward(self, images, boxes_images, transcripts, src_key_padding_mask):
        b, n, c, h, w = boxes_images.shape
        image_segments = self.conv(self.cnn(boxes_images.view(b * n, c, h, w))).view(b, n, 1, -1)
        t = transcripts.size(2)
        x = transcripts + image_segments
        x = self.transformer_encoder(x.view(b * n, t, -1), src_key_padding_mask=src_key_padding_mask.view(b * n, t))
        x = self.norm(x)
        x = F.dropout(x, p=self.dropout, training=self.training)
        return x.view(b, n, t, -1)
