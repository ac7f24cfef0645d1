from torch import nn


def make_classifier(vocab_size, num_topics, hidden=(64,), dropout=0.3):
    """Bag-of-words MLP; the last layer returns log-probabilities for NLLLoss."""
    layers, width = [], vocab_size
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(dropout)]
        width = h
    layers += [nn.Linear(width, num_topics), nn.LogSoftmax(dim=-1)]
    return nn.Sequential(*layers)
