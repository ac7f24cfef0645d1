import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int
from torch import Tensor


class TinyEncoder(nn.Module):
    def __init__(self, vocab_size=300, dim=32, n_heads=4, n_layers=2, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, n_heads, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)

    def forward(self, input_ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq dim"]:
        positions = torch.arange(input_ids.shape[1], device=input_ids.device)
        hidden = self.tok(input_ids) + self.pos(positions)
        return self.encoder(hidden, src_key_padding_mask=input_ids.eq(0))


class IntentHead(nn.Module):
    def __init__(self, dim, n_intents, dropout=0.1):
        super().__init__()
        self.pre_classifier = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)
        self.classifier = nn.Linear(dim, n_intents)

    def forward(self, pooled: Float[Tensor, "batch dim"]) -> Float[Tensor, "batch n_intents"]:
        x = self.dropout(F.relu(self.pre_classifier(pooled)))
        return self.classifier(x)


class IntentClassifier(nn.Module):
    def __init__(self, n_intents=7, dim=32):
        super().__init__()
        self.encoder = TinyEncoder(dim=dim)
        self.head = IntentHead(dim, n_intents)

    def forward(self, input_ids):
        hidden_state = self.encoder(input_ids)
        return self.head(hidden_state)


def main():
    torch.manual_seed(0)
    model = IntentClassifier()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-4)
    input_ids = torch.randint(1, 300, (4, 12))
    input_ids[:, 10:] = 0
    intents = torch.randint(0, 7, (4,))
    for step in range(2):
        logits = model(input_ids)
        loss = F.cross_entropy(logits, intents)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
