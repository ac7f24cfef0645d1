import numpy as np
import torch
from torch import optim


def build_model(input_dim, output_dim):
    model = torch.nn.Sequential()
    model.add_module("linear_1", torch.nn.Linear(input_dim, 64, bias=False))
    model.add_module("relu_1", torch.nn.ReLU())
    model.add_module("linear_2", torch.nn.Linear(64, output_dim, bias=False))
    model.add_module("softmax", torch.nn.Softmax(dim=1))
    return model


def train(model, loss, optimizer, x_val, y_val):
    optimizer.zero_grad()
    fx = model(x_val)
    output = loss(fx, y_val)
    output.backward()
    optimizer.step()
    return output.item()


def predict(model, x_val):
    return model(x_val).argmax(dim=1)


def main():
    torch.manual_seed(42)
    n_examples, n_features, n_classes = 120, 20, 4
    trX = torch.randn(n_examples, n_features)
    trY = trX[:, :n_classes].argmax(dim=1)
    model = build_model(n_features, n_classes)
    loss = torch.nn.CrossEntropyLoss(reduction="mean")
    optimizer = optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    batch_size = 20
    for i in range(5):
        cost = 0.0
        for k in range(n_examples // batch_size):
            start, end = k * batch_size, (k + 1) * batch_size
            cost += train(model, loss, optimizer, trX[start:end], trY[start:end])
        predY = predict(model, trX)
        print("Epoch %d, cost = %f, acc = %.2f%%" % (i + 1, cost / (n_examples // batch_size), 100.0 * np.mean((predY == trY).numpy())))


if __name__ == "__main__":
    main()
