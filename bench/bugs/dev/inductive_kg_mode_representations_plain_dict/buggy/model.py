import torch
import torch.nn as nn

TRAINING, VALIDATION, TESTING = "fit", "valid", "test"


class InductiveDistMult(nn.Module):
    """Entity representations differ per mode (inductive link prediction); relations are shared."""

    def __init__(self, n_entities_per_mode, n_relations, dim=16):
        super().__init__()
        self.relation_representation = nn.Embedding(n_relations, dim)
        self._mode_to_representations = {
            mode: nn.Embedding(n, dim) for mode, n in n_entities_per_mode.items()
        }
        self.mode = TRAINING

    def _entity(self, idx):
        return self._mode_to_representations[self.mode](idx)

    def forward(self, triples):
        h = self._entity(triples[:, 0])
        r = self.relation_representation(triples[:, 1])
        t = self._entity(triples[:, 2])
        return (h * r * t).sum(dim=-1)
