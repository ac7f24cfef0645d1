import torch
from torch import nn

PUNCTUATION = [" ", ",", ".", "?"]


class Config:
    vocab = 60
    embed = 24
    hidden_size = 32
    bidirectional = True
    batch_size = 4
    seq_len = 15
    lr = 2e-3


class GruRNN(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.hidden_size = cfg.hidden_size
        self.bi_mul = 2 if cfg.bidirectional else 1
        self.embedding = nn.Embedding(cfg.vocab, cfg.embed)
        self.gru = nn.GRU(cfg.embed, cfg.hidden_size, num_layers=1, bidirectional=cfg.bidirectional)
        self.decoder = nn.Linear(cfg.hidden_size * self.bi_mul, len(PUNCTUATION))

    def forward(self, chars, hidden=None):
        embedded = self.embedding(chars.t())
        gru_output, hidden = self.gru(embedded, hidden)
        gru_output = gru_output.transpose(0, 1)
        output = self.decoder(gru_output.contiguous().view(-1, self.hidden_size * self.bi_mul))
        return output, hidden


class Engine:
    def __init__(self, cfg):
        self.model = GruRNN(cfg)
        self.criterion = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg.lr)

    def step(self, chars, labels):
        self.optimizer.zero_grad()
        logits, _ = self.model(chars)
        loss = self.criterion(logits, labels.reshape(-1))
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    cfg = Config()
    torch.manual_seed(0)
    engine = Engine(cfg)
    for it in range(3):
        chars = torch.randint(0, cfg.vocab, (cfg.batch_size, cfg.seq_len))
        labels = torch.randint(0, len(PUNCTUATION), (cfg.batch_size, cfg.seq_len))
        print(it, engine.step(chars, labels))
