import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, num_layers):
        super().__init__()
        dims = [input_dim] + [hidden_dim] * (num_layers - 1)
        self.layers = nn.ModuleList(nn.Linear(n, k) for n, k in zip(dims, dims[1:] + [output_dim]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = torch.relu(layer(x)) if i < len(self.layers) - 1 else layer(x)
        return x


class SetPredictor(nn.Module):
    """A DETR-like detector: conv backbone, learned object queries decoded against the feature map."""

    def __init__(self, num_classes=3, num_queries=4, hidden_dim=32, nheads=4, num_decoder_layers=2, dropout=0.1):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, hidden_dim, 3, stride=2, padding=1), nn.BatchNorm2d(hidden_dim), nn.ReLU(),
        )
        layer = nn.TransformerDecoderLayer(hidden_dim, nheads, 2 * hidden_dim, dropout, batch_first=True)
        self.decoder = nn.TransformerDecoder(layer, num_decoder_layers)
        self.query_embed = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.bbox_embed = MLP(hidden_dim, hidden_dim, 4, 3)

    def forward(self, images):
        feats = self.backbone(images).flatten(2).transpose(1, 2)
        queries = self.query_embed.weight.unsqueeze(0).expand(images.size(0), -1, -1)
        hs = self.decoder(queries, feats)
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}
