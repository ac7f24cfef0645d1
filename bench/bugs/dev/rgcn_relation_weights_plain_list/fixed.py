import torch
import torch.nn as nn
import torch.nn.functional as F


def random_knowledge_graph(num_nodes, num_relations, edges_per_relation, seed=0):
    g = torch.Generator().manual_seed(seed)
    adjs = []
    for _ in range(num_relations):
        src = torch.randint(0, num_nodes, (edges_per_relation,), generator=g)
        dst = torch.randint(0, num_nodes, (edges_per_relation,), generator=g)
        adj = torch.zeros(num_nodes, num_nodes)
        adj[dst, src] = 1.0
        deg = adj.sum(dim=1, keepdim=True).clamp(min=1)
        adjs.append(adj / deg)
    return adjs


class RelationalGraphConv(nn.Module):
    def __init__(self, in_dim, out_dim, num_relations):
        super().__init__()
        self.self_loop = nn.Linear(in_dim, out_dim)
        self.relation_weights = nn.ModuleList([nn.Linear(in_dim, out_dim, bias=False) for _ in range(num_relations)])

    def forward(self, h, adjs):
        out = self.self_loop(h)
        for adj, weight in zip(adjs, self.relation_weights):
            out = out + adj @ weight(h)
        return out


class EntityClassifier(nn.Module):
    def __init__(self, num_nodes, num_relations, num_classes, hidden=16):
        super().__init__()
        self.embed = nn.Embedding(num_nodes, hidden)
        self.conv1 = RelationalGraphConv(hidden, hidden, num_relations)
        self.conv2 = RelationalGraphConv(hidden, num_classes, num_relations)

    def forward(self, adjs):
        h = F.relu(self.conv1(self.embed.weight, adjs))
        return self.conv2(F.dropout(h, 0.2, self.training), adjs)


def train(num_nodes=60, num_relations=3, num_classes=4, epochs=20):
    torch.manual_seed(0)
    adjs = random_knowledge_graph(num_nodes, num_relations, 150)
    labels = torch.randint(0, num_classes, (num_nodes,))
    train_mask = torch.rand(num_nodes) < 0.6
    model = EntityClassifier(num_nodes, num_relations, num_classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        logits = model(adjs)
        loss = F.cross_entropy(logits[train_mask], labels[train_mask])
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        acc = (model(adjs).argmax(1)[~train_mask] == labels[~train_mask]).float().mean()
    print(f"loss {loss.item():.3f}  held-out accuracy {acc.item():.3f}")


if __name__ == "__main__":
    train()
