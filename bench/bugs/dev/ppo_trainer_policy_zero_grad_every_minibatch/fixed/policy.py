import torch
import torch.nn as nn


class ActorCritic(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.body = nn.GRU(dim, dim, batch_first=True)
        self.policy_head = nn.Linear(dim, vocab_size)
        self.value_head = nn.Linear(dim, 1)

    def forward(self, queries, responses):
        h, _ = self.body(self.embed(torch.cat([queries, responses], dim=1)))
        h = h[:, queries.size(1) - 1:-1]
        logprobs = self.policy_head(h).log_softmax(-1).gather(-1, responses.unsqueeze(-1)).squeeze(-1)
        return {"logprobs": logprobs, "values": self.value_head(h).squeeze(-1)}
