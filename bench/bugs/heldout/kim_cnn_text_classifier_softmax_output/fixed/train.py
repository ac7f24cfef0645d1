import random

import torch
import torch.nn as nn
import torch.optim as optim

from model import CNNClassifier

EPOCH, BATCH_SIZE, KERNEL_SIZES, KERNEL_DIM, LR = 2, 8, [3, 4, 5], 16, 0.001
VOCAB_SIZE, EMB_DIM, NUM_CLASSES, MAX_LEN = 60, 20, 6, 12


def make_corpus(n=32):
    return [(torch.randint(1, VOCAB_SIZE, (MAX_LEN,)), random.randrange(NUM_CLASSES)) for _ in range(n)]


def get_batch(batch_size, train_data):
    random.shuffle(train_data)
    for sindex in range(0, len(train_data), batch_size):
        batch = train_data[sindex:sindex + batch_size]
        yield torch.stack([x for x, _ in batch]), torch.tensor([y for _, y in batch])


def main():
    train_data = make_corpus()
    model = CNNClassifier(VOCAB_SIZE, EMB_DIM, NUM_CLASSES, KERNEL_DIM, KERNEL_SIZES)
    loss_function = nn.CrossEntropyLoss()
    optimizer = optim.Adam(model.parameters(), lr=LR)
    for epoch in range(EPOCH):
        losses = []
        for inputs, targets in get_batch(BATCH_SIZE, train_data):
            model.zero_grad()
            preds = model(inputs, True)
            loss = loss_function(preds, targets)
            losses.append(loss.item())
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 3)
            optimizer.step()
        print(f"[{epoch}/{EPOCH}] mean_loss : {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    random.seed(0)
    main()
