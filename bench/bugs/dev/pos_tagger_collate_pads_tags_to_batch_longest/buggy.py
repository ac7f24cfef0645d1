"""Part-of-speech tagging with a small Transformer encoder; dynamic padding per batch."""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

random.seed(0)
torch.manual_seed(0)

TAGS = ["PAD", "DET", "NOUN", "VERB", "ADJ", "ADP"]
LEXICON = {"DET": ["the", "a", "every"], "NOUN": ["cat", "dog", "park", "ball"],
           "VERB": ["sees", "chases", "likes"], "ADJ": ["small", "red", "lazy"], "ADP": ["in", "near", "with"]}
PAD_ID, IGNORE = 0, -100


def make_sentence():
    pattern = ["DET", "NOUN", "VERB", "DET", "NOUN"]
    if random.random() < 0.5:
        pattern.insert(1, "ADJ")
    if random.random() < 0.4:
        pattern += ["ADP", "DET", "NOUN"]
    return [random.choice(LEXICON[p]) for p in pattern], pattern


sentences = [make_sentence() for _ in range(96)]
vocab = {"<pad>": PAD_ID}
for words, _ in sentences:
    for w in words:
        vocab.setdefault(w, len(vocab))
tag_index = {t: i for i, t in enumerate(TAGS)}


def collate(batch):
    ids = [[vocab[w] for w in words] for words, _ in batch]
    tags = [[tag_index[t] for t in pattern] for _, pattern in batch]
    max_len = max(len(seq) for seq in ids)
    input_ids = torch.tensor([seq + [PAD_ID] * (max_len - len(seq)) for seq in ids])
    labels = torch.tensor([seq + [IGNORE] * (max_len - len(seq)) for seq in tags])
    return input_ids, labels


class TransformerTagger(nn.Module):
    def __init__(self, vocab_size, n_tags, d_model=64, max_positions=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, d_model, padding_idx=PAD_ID)
        self.pos = nn.Embedding(max_positions, d_model)
        layer = nn.TransformerEncoderLayer(d_model, 4, 128, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Linear(d_model, n_tags)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        h = self.tok(input_ids) + self.pos(positions)
        h = self.encoder(h, src_key_padding_mask=input_ids.eq(PAD_ID))
        return self.classifier(h)


loader = DataLoader(sentences, batch_size=16, shuffle=True, collate_fn=collate)
model = TransformerTagger(len(vocab), len(TAGS))
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss(ignore_index=IGNORE)

for epoch in range(3):
    model.train()
    total = 0.0
    for input_ids, labels in loader:
        logits = model(input_ids)
        loss = loss_fn(logits.reshape(-1, len(TAGS)), labels.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}")
