import logging

import torch

from corpus import TOPICS, bag_of_words, minibatches
from fitting import fit, predict_proba
from nets import make_classifier

VOCAB = 120


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(3)
    x, y = bag_of_words(160, VOCAB)
    net = make_classifier(VOCAB, len(TOPICS))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    fit(net, minibatches(x[:128], y[:128], 16), opt, epochs=3)
    probs = predict_proba(net, x[128:])
    acc = (probs.argmax(1) == y[128:]).float().mean().item()
    logging.info("held-out accuracy %.3f", acc)


if __name__ == "__main__":
    main()
