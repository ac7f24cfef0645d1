import torch
import torch.nn.functional as F

from model import PAD, TransformerClassifier

NTOKEN, BATCH, MAX_LEN = 50, 4, 10


def batchify(sentences):
    """Pad a list of id lists into a time-major (seq_len, batch) tensor."""
    seq_len = max(len(s) for s in sentences)
    out = torch.full((seq_len, len(sentences)), PAD, dtype=torch.long)
    for j, s in enumerate(sentences):
        out[: len(s), j] = torch.tensor(s)
    return out


def sample_batch(g):
    lengths = torch.randint(3, MAX_LEN + 1, (BATCH,), generator=g).tolist()
    sentences = [torch.randint(1, NTOKEN, (n,), generator=g).tolist() for n in lengths]
    return batchify(sentences), torch.randint(0, 3, (BATCH,), generator=g)


def train(steps=3):
    g = torch.Generator().manual_seed(0)
    model = TransformerClassifier(NTOKEN)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    model.train()
    for step in range(steps):
        src, labels = sample_batch(g)
        padding_mask = src.eq(PAD)
        logits = model(src, padding_mask)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    train()
