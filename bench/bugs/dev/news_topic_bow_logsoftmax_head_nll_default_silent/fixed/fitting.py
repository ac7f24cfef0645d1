import logging

import torch
from torch import nn

log = logging.getLogger(__name__)


def fit(net: nn.Sequential, batches, opt, epochs=3, criterion=nn.NLLLoss()):
    history = []
    for epoch in range(epochs):
        net.train()
        epoch_loss = 0.0
        for bow, topic in batches:
            opt.zero_grad()
            log_probs = net(bow)
            loss = criterion(log_probs, topic)
            loss.backward()
            opt.step()
            epoch_loss += loss.item()
        history.append(epoch_loss / len(batches))
        log.info("epoch %d nll %.4f", epoch, history[-1])
    return history


@torch.no_grad()
def predict_proba(net: nn.Sequential, bow):
    net.eval()
    return net(bow).exp()
