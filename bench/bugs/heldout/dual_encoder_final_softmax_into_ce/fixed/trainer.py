import torch
import torch.nn as nn

from dual_encoder import DualEncoder


class Trainer:
    def __init__(self, loss_func=nn.CrossEntropyLoss(), batch_size=4, lr=1e-3):
        self.loss_func = loss_func
        self.batch_size = batch_size
        self.lr = lr

    def train(self, model, context, candidates, answer, epochs=2):
        optimizer = torch.optim.Adam(model.parameters(), lr=self.lr)
        for epoch in range(epochs):
            for i in range(0, len(context), self.batch_size):
                sl = slice(i, i + self.batch_size)
                y_pred = model(context[sl], candidates[sl])
                loss = self.loss_func(y_pred, answer[sl])
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(epoch, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    context = torch.randint(1, 400, (8, 10))
    candidates = torch.randint(1, 400, (8, 5, 6))
    answer = torch.randint(0, 5, (8,))
    Trainer().train(DualEncoder(), context, candidates, answer)
