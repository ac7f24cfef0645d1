import torch
import torch.nn as nn


class AgentInteraction(nn.Module):
    """Agents attend to agents within a radius; the mask is built per scene."""

    def __init__(self, dim=32, heads=4, radius=5.0):
        super().__init__()
        self.radius = radius
        self.encode = nn.Linear(4, dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.decode = nn.Linear(dim, 2)

    def neighbourhood_mask(self, positions):
        dist = torch.cdist(positions, positions)
        return dist > self.radius

    def forward(self, states):
        positions = states[..., :2]
        h = self.encode(states)
        mask = self.neighbourhood_mask(positions)
        h, _ = self.attn(h, h, h, attn_mask=mask)
        return self.decode(h)


model = AgentInteraction()
states = torch.randn(3, 6, 4) * 4
future_offsets = model(states)
print(future_offsets.shape)
