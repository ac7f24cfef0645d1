import torch
import torch.nn as nn


class BiasedMF(nn.Module):
    """r_ui = mu + b_u + b_i + <p_u, q_i>"""

    def __init__(self, n_users: int, n_items: int, factors: int = 16, global_mean: float = 3.0):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, factors)
        self.item_factors = nn.Embedding(n_items, factors)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items, 1)
        self.global_mean = nn.Parameter(torch.tensor(global_mean), requires_grad=False)
        for emb in (self.user_factors, self.item_factors):
            nn.init.normal_(emb.weight, std=0.05)
        nn.init.zeros_(self.user_bias.weight)
        nn.init.zeros_(self.item_bias.weight)

    def forward(self, users: torch.Tensor, items: torch.Tensor) -> torch.Tensor:
        dot = (self.user_factors(users) * self.item_factors(items)).sum(dim=1)
        bias = self.user_bias(users) + self.item_bias(items)
        return self.global_mean + bias + dot
