import torch
import torch.nn as nn


def mlp(in_dim, hidden, dropout=0.1):
    layers = []
    for width in hidden:
        layers += [nn.Linear(in_dim, width), nn.ReLU(), nn.Dropout(dropout)]
        in_dim = width
    return nn.Sequential(*layers)


class MMoE(nn.Module):
    """Multi-gate mixture of experts for click and conversion prediction."""

    def __init__(self, config: dict):
        super().__init__()
        self.embeddings = nn.ModuleList(nn.Embedding(c, config["emb_dim"]) for c in config["sparse_cardinalities"])
        in_dim = config["n_dense"] + config["emb_dim"] * len(config["sparse_cardinalities"])
        self.experts = [mlp(in_dim, config["expert_hidden"]) for _ in range(config["n_experts"])]
        self.gates = nn.ModuleList(nn.Linear(in_dim, config["n_experts"]) for _ in range(config["n_tasks"]))
        self.towers = nn.ModuleList(nn.Linear(config["expert_hidden"][-1], 1) for _ in range(config["n_tasks"]))

    def forward(self, dense, sparse):
        x = torch.cat([dense] + [emb(sparse[:, i]) for i, emb in enumerate(self.embeddings)], dim=1)
        expert_out = torch.stack([expert(x) for expert in self.experts], dim=1)
        logits = []
        for gate, tower in zip(self.gates, self.towers):
            weights = torch.softmax(gate(x), dim=-1).unsqueeze(-1)
            logits.append(tower((weights * expert_out).sum(dim=1)).squeeze(-1))
        return logits
