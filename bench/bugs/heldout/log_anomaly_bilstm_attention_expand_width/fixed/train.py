import logging

import torch
import torch.nn.functional as F

from plelog.config import load_config
from plelog.model import AttLSTMClassifier

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
logger = logging.getLogger("PLELog")


def synthetic_instances(n, vocab_size, max_len, generator):
    events = torch.randint(1, vocab_size, (n, max_len), generator=generator)
    lengths = torch.randint(4, max_len + 1, (n,), generator=generator)
    masks = (torch.arange(max_len).unsqueeze(0) < lengths.unsqueeze(1)).long()
    events = events * masks
    targets = torch.randint(0, 2, (n,), generator=generator)
    return events, masks, targets


def main():
    torch.manual_seed(0)
    config = load_config()
    run = config["Run"]
    vocab_size, max_len = 30, 10
    model = AttLSTMClassifier(vocab_size, config)
    optimizer = torch.optim.Adam(model.parameters(), lr=run.getfloat("lr"))
    g = torch.Generator().manual_seed(0)
    events, masks, targets = synthetic_instances(32, vocab_size, max_len, g)
    bs = run.getint("batch_size")
    for epoch in range(run.getint("epochs")):
        model.train()
        for start in range(0, len(events), bs):
            tag_logits = model(events[start:start + bs], masks[start:start + bs])
            loss = F.cross_entropy(tag_logits, targets[start:start + bs])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
