"""DCRNN traffic-speed forecasting on a small sensor graph: diffusion-convolution GRU cells, encoder-decoder.
Sensors that report no reading in a step keep their previous hidden state."""
import torch
import torch.nn as nn


def random_walk_supports(adj, k=2):
    d_inv = torch.diag(1.0 / adj.sum(1).clamp(min=1e-6))
    p_fwd, p_bwd = d_inv @ adj, torch.diag(1.0 / adj.sum(0).clamp(min=1e-6)) @ adj.t()
    supports = [torch.eye(adj.size(0))]
    for p in (p_fwd, p_bwd):
        term = torch.eye(adj.size(0))
        for _ in range(k):
            term = term @ p
            supports.append(term)
    return torch.stack(supports)


class DCGRUCell(nn.Module):
    def __init__(self, input_dim, num_units, supports):
        super().__init__()
        self.num_units = num_units
        self.register_buffer("supports", supports)
        n_mats = supports.size(0)
        self.gate_weight = nn.Linear((input_dim + num_units) * n_mats, 2 * num_units)
        self.cand_weight = nn.Linear((input_dim + num_units) * n_mats, num_units)

    def _gconv(self, inputs, state, linear):
        x = torch.cat([inputs, state], dim=-1)
        diffused = torch.einsum("knm,bmf->bnkf", self.supports, x).flatten(2)
        return linear(diffused)

    def forward(self, inputs, hx, node_mask):
        value = torch.sigmoid(self._gconv(inputs, hx, self.gate_weight))
        r, u = value[..., :self.num_units], value[..., self.num_units:]
        u.masked_fill_(~node_mask.unsqueeze(-1), 1.0)
        c = torch.tanh(self._gconv(inputs, r * hx, self.cand_weight))
        return u * hx + (1.0 - u) * c


class DCRNN(nn.Module):
    def __init__(self, supports, num_units=16, horizon=3):
        super().__init__()
        self.horizon = horizon
        self.encoder = DCGRUCell(1, num_units, supports)
        self.decoder = DCGRUCell(1, num_units, supports)
        self.projection = nn.Linear(num_units, 1)

    def forward(self, history, masks):
        b, t, n, _ = history.shape
        h = torch.zeros(b, n, self.encoder.num_units)
        for step in range(t):
            h = self.encoder(history[:, step], h, masks[:, step])
        go = torch.zeros(b, n, 1)
        outputs = []
        for _ in range(self.horizon):
            h = self.decoder(go, h, torch.ones(b, n, dtype=torch.bool))
            go = self.projection(h)
            outputs.append(go)
        return torch.stack(outputs, dim=1)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    num_nodes = 7
    adj = (torch.rand(num_nodes, num_nodes, generator=g) > 0.6).float() + torch.eye(num_nodes)
    model = DCRNN(random_walk_supports(adj))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, eps=1e-3)
    for epoch in range(2):
        history = torch.rand(4, 6, num_nodes, 1, generator=g)
        masks = torch.rand(4, 6, num_nodes, generator=g) > 0.1
        target = torch.rand(4, 3, num_nodes, 1, generator=g)
        loss = (model(history, masks) - target).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        print(f"epoch {epoch} mae {loss.item():.4f}")


if __name__ == "__main__":
    main()
