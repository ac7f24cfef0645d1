import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadedAttention(nn.Module):
    def __init__(self, d_feat=40, n_head=5, actv=F.relu, use_bias=True, dropout_p=0.1):
        super().__init__()
        assert d_feat % n_head == 0
        self.d_feat, self.n_head, self.d_head = d_feat, n_head, d_feat // n_head
        self.actv = actv
        self.lin_Q = nn.Linear(d_feat, d_feat, bias=use_bias)
        self.lin_K = nn.Linear(d_feat, d_feat, bias=use_bias)
        self.lin_V = nn.Linear(d_feat, d_feat, bias=use_bias)
        self.lin_O = nn.Linear(d_feat, d_feat, bias=use_bias)
        self.dropout = nn.Dropout(p=dropout_p)

    def forward(self, Q, K, V, mask=None):
        n_batch = Q.shape[0]
        Q_feat, K_feat, V_feat = self.lin_Q(Q), self.lin_K(K), self.lin_V(V)
        Q_split = Q_feat.view(n_batch, -1, self.n_head, self.d_head).permute(0, 2, 1, 3)
        K_split = K_feat.view(n_batch, -1, self.n_head, self.d_head).permute(0, 2, 1, 3)
        V_split = V_feat.view(n_batch, -1, self.n_head, self.d_head).permute(0, 2, 1, 3)
        d_K = K_split.size(-1)
        scores = torch.matmul(Q_split, K_split.permute(0, 1, 3, 2)) / np.sqrt(d_K)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        attention = torch.softmax(scores, dim=-1)
        x_raw = torch.matmul(self.dropout(attention), V_split)
        x_rsh1 = x_raw.permute(0, 2, 1, 3).contiguous()
        x_rsh2 = x_rsh1.view(n_batch, -1, self.d_feat)
        return self.lin_O(x_rsh2)


if __name__ == "__main__":
    torch.manual_seed(0)
    mha = MultiHeadedAttention()
    opt = torch.optim.Adam(mha.parameters(), lr=1e-3)
    src = torch.rand(8, 12, 40)
    for step in range(2):
        out = mha(src, src, src)
        loss = (out - src).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, out.shape, loss.item())
