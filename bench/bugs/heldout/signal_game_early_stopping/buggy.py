import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class EarlyStopper:
    def __init__(self, patience=2):
        self.patience = patience
        self.best = float("inf")
        self.bad_epochs = 0
        self.best_state = None

    def should_stop(self, validation_loss, model):
        if validation_loss < self.best:
            self.best = validation_loss
            self.bad_epochs = 0
            self.best_state = copy.deepcopy(model.state_dict())
        else:
            self.bad_epochs += 1
        return self.bad_epochs > self.patience


class Sender(nn.Module):
    def __init__(self, n_features, vocab):
        super().__init__()
        self.fc = nn.Linear(n_features, vocab)

    def forward(self, x):
        return F.gumbel_softmax(self.fc(x), tau=1.0)


class Receiver(nn.Module):
    def __init__(self, vocab, n_features):
        super().__init__()
        self.fc = nn.Linear(vocab, n_features)

    def forward(self, message):
        return self.fc(message)


class Game(nn.Module):
    def __init__(self, n_features=8, vocab=6):
        super().__init__()
        self.sender, self.receiver = Sender(n_features, vocab), Receiver(vocab, n_features)

    def forward(self, x):
        return F.mse_loss(self.receiver(self.sender(x)), x)


def evaluate(game, batches):
    game.eval()
    with torch.no_grad():
        losses = [game(x) for x in batches]
    game.train()
    return torch.stack(losses)


def train(game, train_batches, valid_batches, epochs=6):
    optimizer = torch.optim.Adam(game.parameters(), lr=1e-2)
    stopper = EarlyStopper()
    for epoch in range(epochs):
        for x in train_batches:
            loss = game(x)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        validation_loss = evaluate(game, valid_batches)
        if stopper.should_stop(validation_loss, game):
            break
    return stopper.best


if __name__ == "__main__":
    torch.manual_seed(0)
    train_batches = [torch.rand(16, 8) for _ in range(4)]
    valid_batches = [torch.rand(16, 8) for _ in range(3)]
    print(train(Game(), train_batches, valid_batches))
