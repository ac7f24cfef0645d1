import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import ToneEvents
from features import Featurizer
from settings import FEATURES, MODEL, TRAIN
from tdnn import TDNNClassifier

logger = logging.getLogger("sed")


def build_model() -> TDNNClassifier:
    return TDNNClassifier(in_channels=FEATURES["n_mels"], **MODEL)


def main():
    logging.basicConfig(level=logging.INFO, format="[%(levelname)s] %(message)s")
    torch.manual_seed(0)
    featurizer = Featurizer(**FEATURES)
    train_set = ToneEvents(48, FEATURES["sample_rate"], TRAIN["clip_seconds"], MODEL["num_classes"], featurizer)
    loader = DataLoader(train_set, batch_size=TRAIN["batch_size"], shuffle=True, drop_last=True)

    model = build_model()
    optimizer = torch.optim.Adam(model.parameters(), lr=TRAIN["lr"])
    criterion = nn.CrossEntropyLoss()
    for epoch in range(TRAIN["epochs"]):
        model.train()
        running = 0.0
        for step, (feats, labels) in enumerate(loader):
            logits = model(feats)
            loss = criterion(logits, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item()
        logger.info("epoch %d loss %.3f", epoch, running / (step + 1))


if __name__ == "__main__":
    main()
