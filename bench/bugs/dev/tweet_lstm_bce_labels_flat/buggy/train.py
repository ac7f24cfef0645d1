import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from model import TweetClassifier


class Parameters:
    max_words = 200
    max_len = 20
    batch_size = 8
    epochs = 2
    learning_rate = 0.01


class TweetDataset(Dataset):
    def __init__(self, n, params: Parameters):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randint(1, params.max_words, (n, params.max_len), generator=g)
        self.y = torch.randint(0, 2, (n,), generator=g)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class Run:
    def __init__(self, model: TweetClassifier, params: Parameters):
        self.model = model
        self.params = params
        self.optimizer = torch.optim.RMSprop(model.parameters(), lr=params.learning_rate)

    def train(self, loader):
        for epoch in range(self.params.epochs):
            self.model.train()
            predictions = []
            for x_batch, y_batch in loader:
                y = y_batch.type(torch.FloatTensor)
                y_pred = self.model(x_batch)
                loss = nn.functional.binary_cross_entropy(y_pred, y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                predictions += list(y_pred.squeeze().detach().numpy())
            print(f"epoch {epoch}: last loss {loss.item():.4f}, {len(predictions)} predictions")


def main():
    torch.manual_seed(0)
    params = Parameters()
    loader = DataLoader(TweetDataset(32, params), batch_size=params.batch_size, shuffle=True)
    Run(TweetClassifier(params.max_words), params).train(loader)


if __name__ == "__main__":
    main()
