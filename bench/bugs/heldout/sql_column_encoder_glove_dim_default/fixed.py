import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def load_word_emb(vocab, dim):
    """Stands in for reading glove.6B.{dim}d.txt: one vector per known word."""
    g = torch.Generator().manual_seed(0)
    return {w: torch.randn(dim, generator=g) for w in vocab}


class WordEmbedding:
    def __init__(self, word_emb, n_word):
        self.word_emb = word_emb
        self.n_word = n_word

    def gen_x_batch(self, questions):
        max_len = max(len(q) for q in questions)
        batch = torch.zeros(len(questions), max_len, self.n_word)
        for i, q in enumerate(questions):
            for t, w in enumerate(q):
                batch[i, t] = self.word_emb.get(w, torch.zeros(self.n_word))
        return batch, [len(q) for q in questions]


class AggPredictor(nn.Module):
    def __init__(self, N_word=300, N_h=32, N_depth=2):
        super().__init__()
        self.agg_lstm = nn.LSTM(input_size=N_word, hidden_size=N_h // 2, num_layers=N_depth,
                                batch_first=True, bidirectional=True)
        self.agg_att = nn.Linear(N_h, 1)
        self.agg_out = nn.Sequential(nn.Linear(N_h, N_h), nn.Tanh(), nn.Linear(N_h, 6))

    def forward(self, x_emb, x_len):
        h, _ = self.agg_lstm(x_emb)
        att = self.agg_att(h).squeeze(-1)
        for i, n in enumerate(x_len):
            att[i, n:] = -100.0
        weights = F.softmax(att, dim=1)
        return self.agg_out((h * weights.unsqueeze(2)).sum(1))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--emb_dim", type=int, default=100)
    args = parser.parse_args([])
    vocab = "how many players are in the team what is name of city".split()
    word_emb = WordEmbedding(load_word_emb(vocab, args.emb_dim), args.emb_dim)
    model = AggPredictor(N_word=args.emb_dim)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    questions = [["how", "many", "players"], ["what", "is", "the", "name", "of", "city"]]
    gold_agg = torch.tensor([3, 0])
    for epoch in range(3):
        x_emb, x_len = word_emb.gen_x_batch(questions)
        scores = model(x_emb, x_len)
        loss = F.cross_entropy(scores, gold_agg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
