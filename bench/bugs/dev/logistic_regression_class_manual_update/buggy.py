import torch


class LogisticRegression:
    def __init__(self, n_features, lr=0.1):
        self.W = torch.zeros(n_features, 1, requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)
        self.lr = lr

    def loss(self, X, y):
        logits = X @ self.W + self.b
        return torch.nn.functional.binary_cross_entropy_with_logits(logits.squeeze(1), y)

    def step(self, X, y):
        loss = self.loss(X, y)
        loss.backward()
        self.W -= self.lr * self.W.grad
        self.b -= self.lr * self.b.grad
        self.W.grad.zero_()
        self.b.grad.zero_()
        return loss.item()


X = torch.randn(100, 3)
y = (X[:, 0] - X[:, 1] > 0).float()
clf = LogisticRegression(3)
for epoch in range(5):
    print(epoch, clf.step(X, y))
