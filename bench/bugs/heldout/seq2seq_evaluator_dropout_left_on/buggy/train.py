import torch
import torch.nn as nn

from evaluator import Evaluator

VOCAB, HID = 50, 32


class Seq2seq(nn.Module):
    def __init__(self, dropout_p=0.3):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HID)
        self.encoder = nn.GRU(HID, HID, batch_first=True)
        self.decoder = nn.GRU(HID, HID, batch_first=True)
        self.dropout = nn.Dropout(dropout_p)
        self.out = nn.Linear(HID, VOCAB)

    def forward(self, src, tgt_in):
        _, h = self.encoder(self.dropout(self.embed(src)))
        dec, _ = self.decoder(self.dropout(self.embed(tgt_in)), h)
        return self.out(self.dropout(dec))


class SupervisedTrainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.evaluator = Evaluator(self.loss)

    def train(self, train_data, dev_data, epochs=2):
        src, tgt = train_data
        for epoch in range(epochs):
            self.model.train()
            for i in range(0, len(src), 4):
                logits = self.model(src[i:i + 4], tgt[i:i + 4, :-1])
                loss = self.loss(logits.transpose(1, 2), tgt[i:i + 4, 1:])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            dev_loss, accuracy = self.evaluator.evaluate(self.model, dev_data)
            print(epoch, dev_loss, accuracy)


if __name__ == "__main__":
    torch.manual_seed(0)
    make = lambda n: (torch.randint(0, VOCAB, (n, 7)), torch.randint(0, VOCAB, (n, 6)))
    SupervisedTrainer(Seq2seq()).train(make(12), make(8))
