import torch
from torch import nn


class ConvBackbone(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, d_model, 3, padding=1), nn.BatchNorm2d(d_model), nn.ReLU(), nn.MaxPool2d(2),
        )

    def forward(self, x):
        return self.body(x)


class VisionRecognizer(nn.Module):
    def __init__(self, num_classes=37, max_length=8, d_model=64, img_h=32, img_w=128):
        super().__init__()
        self.backbone = ConvBackbone(d_model)
        self.pos_embedding = nn.Parameter(0.02 * torch.randn(1, (img_h // 4) * (img_w // 4), d_model))
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=128, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1)
        self.queries = nn.Parameter(0.02 * torch.randn(1, max_length, d_model))
        self.attn = nn.MultiheadAttention(d_model, 4, batch_first=True)
        self.cls = nn.Linear(d_model, num_classes)

    def forward(self, images):
        features = self.backbone(images).flatten(2).transpose(1, 2)
        features = self.encoder(features + self.pos_embedding)
        queries = self.queries.expand(images.size(0), -1, -1)
        attended, _ = self.attn(queries, features, features)
        return self.cls(attended)
