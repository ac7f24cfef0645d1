import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class GraphEncoder(nn.Module):
    def __init__(self, num_nodes: int, dim: int):
        super().__init__()
        self.embedding = nn.Embedding(num_nodes, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, node_ids: Int[Tensor, " n"], adj: Float[Tensor, "n n"]) -> Float[Tensor, "n embedding_dim"]:
        h = self.embedding(node_ids)
        return F.relu(self.proj(adj @ h)) + h


class DotProductDecoder(nn.Module):
    def forward(
        self,
        query_embeddings: Float[Tensor, "queries embedding_dim"],
        candidate_embeddings: Float[Tensor, "candidates embedding_dim"],
    ) -> Float[Tensor, "queries candidates"]:
        return query_embeddings @ candidate_embeddings.T


def retrieval_loss(scores: Float[Tensor, "queries candidates"], labels: Int[Tensor, " queries"]) -> Float[Tensor, ""]:
    return F.cross_entropy(scores, labels)


def main() -> None:
    torch.manual_seed(0)
    num_nodes, dim = 20, 16
    encoder, decoder = GraphEncoder(num_nodes, dim), DotProductDecoder()
    optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-2)
    adj = (torch.rand(num_nodes, num_nodes) > 0.8).float()
    adj = adj / adj.sum(1, keepdim=True).clamp(min=1)
    for step in range(3):
        emb = encoder(torch.arange(num_nodes), adj)
        queries = emb[:5]
        candidates = emb[5:].t()
        top_candidates = (queries @ candidates).topk(3, dim=1).indices
        scores = decoder(queries, candidates.T)
        loss = retrieval_loss(scores, torch.randint(0, num_nodes - 5, (5,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item(), top_candidates[0].tolist())


if __name__ == "__main__":
    main()
