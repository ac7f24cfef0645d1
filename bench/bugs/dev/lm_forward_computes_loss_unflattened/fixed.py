import torch
import torch.nn as nn
from torch.nn import functional as F

torch.manual_seed(1337)
vocab_size, block_size, n_embd = 65, 8, 32


class BigramLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T))
        logits = self.lm_head(tok_emb + pos_emb)
        if targets is None:
            loss = None
        else:
            loss = F.cross_entropy(logits.view(B * T, vocab_size), targets.view(B * T))
        return logits, loss


data = torch.randint(0, vocab_size, (500,))


def get_batch(batch_size=4):
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y


model = BigramLanguageModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(2):
    xb, yb = get_batch()
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
print(loss.item())
