import torch
import torch.nn as nn


class FeedForward(nn.Module):
    def __init__(self, dim, mult=2, dropout=0.0):
        super().__init__()
        self.fc1 = nn.Linear(dim, dim * mult)
        self.act = nn.GELU()
        self.drop = nn.Dropout(dropout)
        self.fc2 = nn.Linear(dim * mult, dim)

    def forward(self, x):
        return self.fc2(self.drop(self.act(self.fc1(x))))


class MixerLayer(nn.Module):
    """Token mixing then channel mixing, each as a pre-norm residual branch."""

    def __init__(self, num_tokens, dim):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mix = FeedForward(num_tokens)
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mix = FeedForward(dim)

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.norm1(hidden_states)
        hidden_states = residual + self.token_mix(hidden_states.transpose(1, 2)).transpose(1, 2)
        hidden_states += self.channel_mix(hidden_states)
        return self.norm2(hidden_states)
