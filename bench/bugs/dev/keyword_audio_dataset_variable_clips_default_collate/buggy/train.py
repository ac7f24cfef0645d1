import logging

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, random_split

from kws.dataset import KEYWORDS, SyntheticCommands
from kws.net import M5
from kws.transforms import Compose, PeakNormalize, RandomGain

log = logging.getLogger("kws")


def number_of_correct(pred: torch.Tensor, target: torch.Tensor) -> int:
    return pred.argmax(dim=-1).eq(target).sum().item()


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    dataset = SyntheticCommands(80, transform=Compose(PeakNormalize(), RandomGain()))
    train_set, test_set = random_split(dataset, [64, 16], generator=torch.Generator().manual_seed(0))
    train_loader = DataLoader(train_set, batch_size=16, shuffle=True)
    test_loader = DataLoader(test_set, batch_size=16)

    model = M5(n_classes=len(KEYWORDS))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-4)
    for epoch in range(2):
        model.train()
        for waves, labels in train_loader:
            loss = F.cross_entropy(model(waves), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for waves, labels in test_loader:
                correct += number_of_correct(model(waves), labels)
        log.info("epoch %d loss %.3f test acc %.2f", epoch, loss.item(), correct / len(test_set))


if __name__ == "__main__":
    main()
