import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

PAD, SOS = 0, 1


class Encoder(nn.Module):
    def __init__(self, vocab: int, emb: int, hidden: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)

    def forward(self, src):
        _, state = self.rnn(self.embedding(src))
        return state


class Decoder(nn.Module):
    def __init__(self, vocab: int, emb: int, hidden: int) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.LSTM(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, tokens, state):
        output, state = self.rnn(self.embedding(tokens), state)
        return torch.log_softmax(self.out(output), dim=-1), state


class QuestionGenerator(nn.Module):
    def __init__(self, vocab: int = 100, emb: int = 32, hidden: int = 64) -> None:
        super().__init__()
        self.encoder = Encoder(vocab, emb, hidden)
        self.decoder = Decoder(vocab, emb, hidden)

    def forward(self, sentence, question):
        state = self.encoder(sentence)
        # teacher forcing: the decoder reads the gold question without its last token
        pred, _ = self.decoder(question[:, :-1], state)
        return pred


def main(epochs: int = 2) -> None:
    sentences = torch.randint(2, 100, (16, 20))
    questions = torch.cat([torch.full((16, 1), SOS), torch.randint(2, 100, (16, 9))], dim=1)
    loader = DataLoader(TensorDataset(sentences, questions), batch_size=8, shuffle=True)
    model = QuestionGenerator()
    criterion = nn.NLLLoss(ignore_index=PAD)
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    for epoch in range(epochs):
        for sentence, question in loader:
            pred = model(sentence, question)
            loss = criterion(pred.view(-1, pred.size(2)), question.view(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        print(f"epoch {epoch}: {loss.item():.3f}")


if __name__ == "__main__":
    main()
