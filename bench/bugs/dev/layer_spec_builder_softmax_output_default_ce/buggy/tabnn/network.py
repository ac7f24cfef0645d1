import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


def _fit_loop(model, loader, optimizer, epochs, loss_fn=nn.CrossEntropyLoss()):
    for epoch in range(epochs):
        running = 0.0
        for x, y in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
            running += loss.item()
        logger.info("epoch %d loss %.4f", epoch, running / len(loader))


class ClassificationNeuralNetwork:
    def __init__(self, layers, input_size):
        modules, size = [], input_size
        for i, layer in enumerate(layers):
            modules += layer.get_internal_layer(size, is_output=i == len(layers) - 1)
            size = layer.output_size
        modules.append(nn.Softmax(dim=1))
        self._model = nn.Sequential(*modules)

    def fit(self, loader, epochs=3, learning_rate=1e-3):
        optimizer = torch.optim.SGD(self._model.parameters(), lr=learning_rate, momentum=0.9)
        self._model.train()
        _fit_loop(self._model, loader, optimizer, epochs)
        return self

    def predict_proba(self, x):
        self._model.eval()
        with torch.no_grad():
            return self._model(x)
