import torch
import torch.nn as nn


class SharedRNN(nn.Module):
    def __init__(self, vocab=60, dim=24, n_ops=3):
        super().__init__()
        self.encoder = nn.Embedding(vocab, dim)
        self.cells = nn.ModuleList(nn.Linear(dim, dim) for _ in range(n_ops))
        self.acts = [torch.tanh, torch.relu, torch.sigmoid]
        self.decoder = nn.Linear(dim, vocab)

    def forward(self, inputs, dag):
        h = self.encoder(inputs)
        for op in dag:
            h = self.acts[op](self.cells[op](h))
        return self.decoder(h)


class Controller(nn.Module):
    def __init__(self, n_ops=3, n_nodes=3, dim=16):
        super().__init__()
        self.n_nodes = n_nodes
        self.logits = nn.Parameter(torch.zeros(n_nodes, n_ops))

    def sample(self):
        dist = torch.distributions.Categorical(logits=self.logits)
        dag = dist.sample()
        return dag.tolist(), dist.log_prob(dag).sum()
