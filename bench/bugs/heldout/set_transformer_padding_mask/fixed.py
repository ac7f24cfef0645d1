import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


def lengths_to_padding_mask(lengths, max_len=None):
    max_len = max_len or int(lengths.max())
    positions = torch.arange(max_len)
    return positions[None, :] >= lengths[:, None]


class SequenceEncoder(nn.Module):
    """Self-attention over variable-length item sequences, time-major as fairseq lays them out."""

    def __init__(self, n_items=100, dim=32, heads=4, n_classes=3):
        super().__init__()
        self.embed = nn.Embedding(n_items, dim, padding_idx=0)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=0.1)
        self.norm = nn.LayerNorm(dim)
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, tokens, lengths):
        x = self.embed(tokens).transpose(0, 1)
        pad_mask = lengths_to_padding_mask(lengths, tokens.size(1))
        attn_out, _ = self.attn(x, x, x, key_padding_mask=pad_mask)
        x = self.norm(x + attn_out)
        keep = (~pad_mask).t().unsqueeze(-1).float()
        pooled = (x * keep).sum(0) / keep.sum(0).clamp(min=1)
        return self.cls(pooled)


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    data = [(torch.randint(1, 100, (int(n),), generator=g), int(n) % 3)
            for n in torch.randint(3, 9, (24,), generator=g)]
    loader = torch.utils.data.DataLoader(data, batch_size=6, collate_fn=collate, shuffle=True)
    model = SequenceEncoder()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for tokens, lengths, labels in loader:
            loss = nn.functional.cross_entropy(model(tokens, lengths), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
