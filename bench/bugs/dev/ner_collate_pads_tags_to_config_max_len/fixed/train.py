import logging

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from tagger.config import TaggerConfig
from tagger.data import Collator, synthetic_corpus
from tagger.model import BiLSTMTagger
from tagger.vocab import Vocab

logger = logging.getLogger("ner")


def token_accuracy(logits: torch.Tensor, gold: torch.Tensor) -> float:
    mask = gold != -100
    return (logits.argmax(-1)[mask] == gold[mask]).float().mean().item()


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    cfg = TaggerConfig()
    corpus = synthetic_corpus(64)
    vocab = Vocab(w for w, _ in corpus)
    loader = DataLoader(corpus, batch_size=cfg.batch_size, shuffle=True, collate_fn=Collator(vocab, cfg))

    model = BiLSTMTagger(len(vocab), len(cfg.tags), cfg.emb_dim, cfg.hidden)
    criterion = nn.CrossEntropyLoss(ignore_index=-100)
    optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        for token_ids, lengths, tag_ids in loader:
            logits = model(token_ids, lengths)
            loss = criterion(logits.view(-1, logits.size(-1)), tag_ids.view(-1))
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
        logger.info("epoch %d loss %.4f", epoch, loss.item())


if __name__ == "__main__":
    main()
