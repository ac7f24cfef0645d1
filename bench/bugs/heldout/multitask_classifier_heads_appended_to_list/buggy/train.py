import numpy as np
import torch
import torch.nn.functional as F

from model import MultiTaskNet

batch_size = 32
lr = 1e-3
epochs = 2
input_features = 100
train_samples = 128
num_classes = [5, 2, 10, 3]


def main() -> None:
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    X_train = torch.tensor(rng.random((train_samples, input_features)), dtype=torch.float32)
    y_trains = [torch.tensor(rng.integers(0, c, train_samples)) for c in num_classes]
    model = MultiTaskNet(input_features, num_classes)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for i in range(0, train_samples, batch_size):
            outputs = model(X_train[i : i + batch_size])
            loss = sum(F.cross_entropy(out, y[i : i + batch_size]) for out, y in zip(outputs, y_trains))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
