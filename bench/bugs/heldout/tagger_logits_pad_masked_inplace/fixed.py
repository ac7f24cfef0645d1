import torch
import torch.nn as nn
import torch.nn.functional as F

PAD, UNK = 0, 1


class Tagger(nn.Module):
    """BiGRU tagger over word ids; the padding tag can never be predicted."""

    def __init__(self, vocab=200, n_tags=7, emb=24, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, n_tags)

    def forward(self, words):
        h, _ = self.rnn(self.embed(words))
        logits = self.proj(h)
        logits[..., PAD] = -1e4
        logits += self.transition_bias(words)
        return logits

    def transition_bias(self, words):
        return (words == UNK).unsqueeze(-1).float() * 0.1


def train(model, batches, epochs=2):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for words, tags in batches:
            logits = model(words)
            loss = F.cross_entropy(logits.flatten(0, 1), tags.flatten(), ignore_index=PAD)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [(torch.randint(1, 200, (4, 9)), torch.randint(1, 7, (4, 9))) for _ in range(3)]
    train(Tagger(), batches)
