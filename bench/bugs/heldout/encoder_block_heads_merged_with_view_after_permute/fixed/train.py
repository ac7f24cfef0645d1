import torch
import torch.nn as nn

from layers import EncoderLayer

VOCAB, D_MODEL, N_LAYERS, SEQ = 500, 64, 2, 12


class TinyEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.zeros(1, SEQ, D_MODEL))
        self.layers = nn.ModuleList(EncoderLayer(D_MODEL) for _ in range(N_LAYERS))
        self.lm_head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens, pad_mask):
        h = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        attn_mask = pad_mask.unsqueeze(1).expand(-1, tokens.size(1), -1)
        for layer in self.layers:
            h = layer(h, attn_mask)
        return self.lm_head(h)


def masked_lm_step(model, optimizer, tokens):
    pad_mask = (tokens != 0).long()
    corrupted = tokens.masked_fill(torch.rand(tokens.shape) < 0.15, 1)
    logits = model(corrupted, pad_mask)
    loss = nn.functional.cross_entropy(logits.transpose(1, 2), tokens)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyEncoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for step in range(3):
        tokens = torch.randint(2, VOCAB, (4, SEQ))
        print(step, masked_lm_step(model, optimizer, tokens))
