"""AGCRN-style node-adaptive graph convolution for multi-sensor forecasting (one GRU-like cell, unrolled)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AVWGCN(nn.Module):
    def __init__(self, dim_in, dim_out, cheb_k, embed_dim):
        super().__init__()
        self.cheb_k = cheb_k
        self.weights_pool = nn.Parameter(torch.FloatTensor(embed_dim, cheb_k, dim_in, dim_out))
        self.bias_pool = nn.Parameter(torch.FloatTensor(embed_dim, dim_out))

    def forward(self, x, node_embeddings):
        node_num = node_embeddings.shape[0]
        supports = F.softmax(F.relu(node_embeddings @ node_embeddings.t()), dim=1)
        support_set = [torch.eye(node_num), supports]
        for _ in range(2, self.cheb_k):
            support_set.append(2 * supports @ support_set[-1] - support_set[-2])
        supports = torch.stack(support_set, dim=0)
        weights = torch.einsum("nd,dkio->nkio", node_embeddings, self.weights_pool)
        bias = node_embeddings @ self.bias_pool
        x_g = torch.einsum("knm,bmc->bknc", supports, x).permute(0, 2, 1, 3)
        return torch.einsum("bnki,nkio->bno", x_g, weights) + bias


class AGCRNCell(nn.Module):
    def __init__(self, node_num, dim_in, dim_out, cheb_k, embed_dim):
        super().__init__()
        self.hidden_dim = dim_out
        self.gate = AVWGCN(dim_in + dim_out, 2 * dim_out, cheb_k, embed_dim)
        self.update = AVWGCN(dim_in + dim_out, dim_out, cheb_k, embed_dim)

    def forward(self, x, state, node_embeddings):
        z_r = torch.sigmoid(self.gate(torch.cat((x, state), dim=-1), node_embeddings))
        z, r = torch.split(z_r, self.hidden_dim, dim=-1)
        hc = torch.tanh(self.update(torch.cat((x, z * state), dim=-1), node_embeddings))
        return r * state + (1 - r) * hc


class AGCRN(nn.Module):
    def __init__(self, num_nodes=10, input_dim=1, hidden=8, embed_dim=4, cheb_k=2, horizon=3):
        super().__init__()
        self.node_embeddings = nn.Parameter(torch.randn(num_nodes, embed_dim))
        self.cell = AGCRNCell(num_nodes, input_dim, hidden, cheb_k, embed_dim)
        self.end_conv = nn.Conv2d(1, horizon, kernel_size=(1, hidden))

    def forward(self, source):
        b, t, n, _ = source.shape
        state = torch.zeros(b, n, self.cell.hidden_dim)
        for step in range(t):
            state = self.cell(source[:, step], state, self.node_embeddings)
        return self.end_conv(state[:, None]).squeeze(-1)


def main():
    torch.manual_seed(0)
    model = AGCRN()
    for p in model.parameters():
        if p.dim() > 2:
            nn.init.xavier_uniform_(p)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x = torch.randn(8, 6, 10, 1)
    y = x[:, -3:, :, 0]
    for epoch in range(3):
        loss = F.l1_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} mae {loss.item():.4f}")


if __name__ == "__main__":
    main()
