import torch
import torch.nn as nn
import torch.nn.functional as F


class BPR_Item(nn.Module):
    def __init__(self, user_size, item_size, dim, weight_decay):
        super().__init__()
        self.W = nn.Parameter(torch.empty(user_size, dim))
        self.H = nn.Parameter(torch.empty(item_size, dim))
        self.B = nn.Parameter(torch.rand(item_size))
        nn.init.xavier_normal_(self.W.data)
        nn.init.xavier_normal_(self.H.data)
        self.weight_decay = weight_decay

    def forward(self, u, i, j):
        """Return the loss of a batch of (user, preferred item, other item) triples."""
        u1, i1, j1 = self.W[u, :], self.H[i, :], self.H[j, :]
        x_ui = torch.mul(u1, i1).sum(dim=1) + self.B[i]
        x_uj = torch.mul(u1, j1).sum(dim=1) + self.B[j]
        log_prob = F.logsigmoid(x_ui - x_uj)
        regularization = self.weight_decay * (u1.norm(dim=1).pow(2).sum() + i1.norm(dim=1).pow(2).sum() + j1.norm(dim=1).pow(2).sum())
        return -log_prob + regularization

    def recommend(self, u, k=5):
        scores = self.W[u] @ self.H.t() + self.B
        return scores.topk(k, dim=1).indices
