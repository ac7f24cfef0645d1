import json
import logging
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from dataset import IntentDataset
from intents import INTENTS
from model import IntentNet

logging.basicConfig(level=logging.INFO)
log = logging.getLogger("chatbot")

BATCH_SIZE = 8
HIDDEN_SIZE = 8
LEARNING_RATE = 0.001
NUM_EPOCHS = 30


def main():
    torch.manual_seed(0)
    dataset = IntentDataset(INTENTS)
    loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True)
    input_size = len(dataset)
    output_size = len(dataset.tags)
    log.info("%d patterns, %d tags, vocabulary of %d", len(dataset), output_size, len(dataset.vocabulary))

    model = IntentNet(input_size, HIDDEN_SIZE, output_size)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)

    for epoch in range(NUM_EPOCHS):
        for words, labels in loader:
            outputs = model(words)
            loss = criterion(outputs, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        if (epoch + 1) % 10 == 0:
            log.info("epoch [%d/%d] loss %.4f", epoch + 1, NUM_EPOCHS, loss.item())

    with tempfile.TemporaryDirectory() as out_dir:
        torch.save({"model_state": model.state_dict(), "input_size": input_size, "hidden_size": HIDDEN_SIZE,
                    "output_size": output_size}, os.path.join(out_dir, "data.pth"))
        with open(os.path.join(out_dir, "meta.json"), "w") as fh:
            json.dump({"tags": dataset.tags, "vocabulary": dataset.vocabulary}, fh)
        log.info("saved checkpoint and vocabulary to %s", out_dir)


if __name__ == "__main__":
    main()
