import torch
from torch import nn, Tensor
from jaxtyping import Float


class GraphConv(nn.Module):
    def __init__(self, adj: Float[Tensor, "N N"], in_features: int, out_features: int) -> None:
        super().__init__()
        deg = adj.sum(dim=1)
        norm = deg.pow(-0.5)
        self.register_buffer("adj", norm[:, None] * adj * norm[None, :])
        self.adj: Float[Tensor, "N N"]
        self.lin = nn.Linear(in_features, out_features)

    def forward(self, x: Float[Tensor, "B N F"]) -> Float[Tensor, "B N H"]:
        return self.lin(self.adj @ x)


if __name__ == "__main__":
    n = 12
    adj = (torch.rand(n, n) > 0.7).float()
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n)
    layer = GraphConv(adj, in_features=5, out_features=8)
    print(layer(torch.randn(3, n, 5)).shape)
