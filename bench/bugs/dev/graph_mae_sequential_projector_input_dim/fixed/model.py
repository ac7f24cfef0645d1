import torch
import torch.nn as nn
import torch.nn.functional as F

from modules import DenseGCNLayer, MLPProjector


class GraphMAE(nn.Module):
    def __init__(self, num_features: int, hidden: int = 32, mask_rate: float = 0.5) -> None:
        super().__init__()
        self.mask_rate = mask_rate
        self.enc_mask_token = nn.Parameter(torch.zeros(1, num_features))
        self.encoder = nn.ModuleList([DenseGCNLayer(num_features, hidden), DenseGCNLayer(hidden, hidden)])
        self.encoder_to_decoder = MLPProjector(hidden, hidden, hidden)
        self.decoder = DenseGCNLayer(hidden, num_features)

    def encode(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        for layer in self.encoder:
            x = layer(x, adj)
        return x

    def forward(self, x: torch.Tensor, adj: torch.Tensor) -> torch.Tensor:
        n = x.size(0)
        masked = torch.randperm(n)[: int(self.mask_rate * n)]
        x_in = x.clone()
        x_in[masked] = self.enc_mask_token
        enc_rep = self.encode(x_in, adj)
        rep = self.encoder_to_decoder(enc_rep)
        rep = rep.clone()
        rep[masked] = 0.0
        recon = self.decoder(rep, adj)
        cos = F.cosine_similarity(recon[masked], x[masked], dim=-1)
        return (1 - cos).pow(2).mean()
