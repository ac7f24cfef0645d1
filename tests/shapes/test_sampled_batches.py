"""`random.sample(population, k)` is `k` of the population's elements, and leaves the population as it was: a batch
of node ids drawn from a list of them, looked up in an embedding, is (k, features)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project
from tests.shapes.probe import probe

# a GraphSAGE classifier: the encoder hands (embed, batch) embeddings (weight.mm(feats.t())), and the model multiplies
# them, untransposed, by its (embed, classes) weight (checked in torch 2.13: "mat1 and mat2 shapes cannot be
# multiplied (128x256 and 128x7)"); the batches are 256 node ids a training loop samples from the nodes
_ENCODER = '''
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, features, feature_dim, embed_dim):
        super().__init__()
        self.features = features
        self.weight = nn.Parameter(torch.empty(embed_dim, feature_dim))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, nodes):
        feats = self.features(torch.LongTensor(nodes))
        return F.relu(self.weight.mm(feats.t()))
'''
_MODEL = '''
import torch
import torch.nn as nn


class SupervisedGraphSage(nn.Module):
    def __init__(self, num_classes, enc, embed_dim):
        super().__init__()
        self.enc = enc
        self.weight = nn.Parameter(torch.empty(embed_dim, num_classes))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, nodes):
        embeds = self.enc(nodes)
        return torch.mm(%s, self.weight)
'''
_RUN = '''
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

from sage.encoder import Encoder
from sage.model import SupervisedGraphSage


def run(num_nodes=2708, num_feats=1433, embed=128):
    features = nn.Embedding(num_nodes, num_feats)
    labels = torch.randint(0, 7, (num_nodes,))
    model = SupervisedGraphSage(7, Encoder(features, num_feats, embed), embed)
    opt = torch.optim.SGD(model.parameters(), lr=0.7)
    train = list(range(num_nodes))
    for batch in range(100):
        batch_nodes = random.sample(train, 256)
        loss = F.cross_entropy(model(batch_nodes), labels[batch_nodes])
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    run()
'''


def _sage(embeds: str) -> dict[str, str]:
    return {"sage/__init__.py": "", "sage/encoder.py": _ENCODER, "sage/model.py": _MODEL % embeds, "run.py": _RUN}


def test_embeddings_of_sampled_nodes_multiplied_untransposed(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _sage("embeds"), "SC105") == [("run.py", 20)]
    assert lint_project(tmp_path, _sage("embeds.t()"), "SC105") == []


def test_a_sample_is_k_of_the_population_s_elements() -> None:
    assert probe('''
import random
import torch
ids = list(range(5000))
batch = random.sample(ids, 32)
probe(torch.tensor(batch))
probe(torch.tensor(random.sample(ids, k=16)))
probe(torch.tensor(ids))
rng = random.Random(0)
probe(torch.tensor(rng.sample(ids, 8)))
''') == ["(32,)", "(16,)", "(len(ids),)", "(8,)"]
