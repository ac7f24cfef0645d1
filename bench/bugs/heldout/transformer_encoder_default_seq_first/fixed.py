import math

import torch
from torch import nn


class ReviewClassifier(nn.Module):
    def __init__(self, vocab_size=3000, d_model=64, nhead=4, num_layers=2, num_classes=3, max_len=64):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, d_model, padding_idx=0)
        self.pos = nn.Parameter(torch.zeros(1, max_len, d_model))
        layer = nn.TransformerEncoderLayer(d_model=d_model, nhead=nhead, dim_feedforward=128, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=num_layers)
        self.classifier = nn.Linear(d_model, num_classes)
        self.scale = math.sqrt(d_model)

    def forward(self, input_ids):
        pad_mask = input_ids == 0
        x = self.embedding(input_ids) * self.scale + self.pos[:, : input_ids.size(1)]
        x = self.encoder(x, src_key_padding_mask=pad_mask)
        return self.classifier(x[:, 0])


def main():
    model = ReviewClassifier()
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    input_ids = torch.randint(1, 3000, (8, 20))
    input_ids[:, 15:] = 0
    labels = torch.randint(0, 3, (8,))
    loss = nn.functional.cross_entropy(model(input_ids), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(loss.item())


if __name__ == "__main__":
    main()
