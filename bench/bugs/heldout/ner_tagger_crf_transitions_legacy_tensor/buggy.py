"""Emission scores from a small BiGRU, a linear-chain CRF on top (negative log-likelihood training)."""
import torch
import torch.nn as nn


class CRF(nn.Module):
    def __init__(self, num_tags):
        super().__init__()
        self.num_tags = num_tags
        self.start_transitions = nn.Parameter(torch.zeros(num_tags))
        self.end_transitions = nn.Parameter(torch.zeros(num_tags))
        self.transitions = nn.Parameter(torch.Tensor(num_tags, num_tags))

    def _score(self, emissions, tags):
        batch, seq_len, _ = emissions.shape
        ar = torch.arange(batch)
        score = self.start_transitions[tags[:, 0]] + emissions[ar, 0, tags[:, 0]]
        for t in range(1, seq_len):
            score = score + self.transitions[tags[:, t - 1], tags[:, t]] + emissions[ar, t, tags[:, t]]
        return score + self.end_transitions[tags[:, -1]]

    def _partition(self, emissions):
        alpha = self.start_transitions + emissions[:, 0]
        for t in range(1, emissions.size(1)):
            alpha = torch.logsumexp(alpha.unsqueeze(2) + self.transitions + emissions[:, t].unsqueeze(1), dim=1)
        return torch.logsumexp(alpha + self.end_transitions, dim=1)

    def forward(self, emissions, tags):
        return (self._partition(emissions) - self._score(emissions, tags)).mean()


class Tagger(nn.Module):
    def __init__(self, vocab=100, dim=16, hidden=16, num_tags=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, hidden, batch_first=True, bidirectional=True)
        self.emit = nn.Linear(2 * hidden, num_tags)
        self.crf = CRF(num_tags)

    def neg_log_likelihood(self, tokens, tags):
        h, _ = self.rnn(self.embed(tokens))
        return self.crf(self.emit(h), tags)


def main(steps=3):
    torch.manual_seed(0)
    tagger = Tagger()
    opt = torch.optim.SGD(tagger.parameters(), lr=0.05)
    for step in range(steps):
        tokens = torch.randint(0, 100, (4, 7))
        tags = torch.randint(0, 5, (4, 7))
        opt.zero_grad()
        loss = tagger.neg_log_likelihood(tokens, tags)
        loss.backward()
        opt.step()
        print(f"step {step} nll {loss.item():.4f}")


if __name__ == "__main__":
    main()
