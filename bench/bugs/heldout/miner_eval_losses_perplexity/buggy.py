import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=128, dim=48, n_layers=2, dropout=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, dim * 2, dropout=dropout, batch_first=True)
        self.body = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.head = nn.Linear(dim, vocab)

    def forward(self, tokens):
        mask = nn.Transformer.generate_square_subsequent_mask(tokens.size(1))
        return self.head(self.body(self.embed(tokens), mask=mask, is_causal=True))


def compute_losses(model, batches):
    """Average next-token loss of each batch, the score a validator ranks models by."""
    model.eval()
    losses = []
    for batch in batches:
        logits = model(batch)
        loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), batch[:, 1:].flatten())
        losses.append(loss.item())
    return losses


def train(model, batches, epochs=2):
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for epoch in range(epochs):
        model.train()
        for batch in batches:
            logits = model(batch)
            loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), batch[:, 1:].flatten())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        losses = compute_losses(model, batches)
        print(epoch, "perplexity", math.exp(sum(losses) / len(losses)))


if __name__ == "__main__":
    torch.manual_seed(0)
    data = [torch.randint(0, 128, (4, 16)) for _ in range(3)]
    train(TinyLM(), data)
