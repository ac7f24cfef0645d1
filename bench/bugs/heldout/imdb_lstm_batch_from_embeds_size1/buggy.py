import torch
import torch.nn as nn
import torch.nn.functional as F

MAXFEATURES = 500
EMBEDSIZE = 12
NUMHIDDEN = 10
BATCHSIZE = 8
MAXLEN = 20
EPOCHS = 2


def imdb_like(n=32):
    x = torch.randint(1, MAXFEATURES, (n, MAXLEN))
    y = torch.randint(0, 2, (n,))
    return x, y


def yield_mb(x, y, batchsize):
    for i in range(0, len(x) - batchsize + 1, batchsize):
        yield x[i:i + batchsize], y[i:i + batchsize]


class SymbolModule(nn.Module):
    # MINIBATCH in: [BATCHSIZE, MAXLEN], LABEL: [BATCHSIZE]
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings=MAXFEATURES, embedding_dim=EMBEDSIZE)
        self.lstm = nn.LSTM(input_size=EMBEDSIZE, hidden_size=NUMHIDDEN)
        self.l_out = nn.Linear(NUMHIDDEN, 2)

    def init_hidden(self, batch_size):
        return (torch.zeros(1, batch_size, NUMHIDDEN), torch.zeros(1, batch_size, NUMHIDDEN))

    def forward(self, x):
        embeds = self.embedding(x)
        _batch_size = embeds.size(1)
        h0 = self.init_hidden(_batch_size)
        out, _ = self.lstm(embeds, h0)
        return self.l_out(out[-1])


def train(sym, x_train, y_train):
    optimizer = torch.optim.Adam(sym.parameters(), lr=1e-3)
    sym.train()
    for epoch in range(EPOCHS):
        for data, target in yield_mb(x_train, y_train, BATCHSIZE):
            optimizer.zero_grad()
            output = sym(data)
            loss = F.cross_entropy(output, target)
            loss.backward()
            optimizer.step()
        print("epoch", epoch, loss.item())


if __name__ == "__main__":
    x_train, y_train = imdb_like()
    train(SymbolModule(), x_train, y_train)
