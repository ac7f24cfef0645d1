from collections import Counter

import torch

from model import BiLSTMTagger


def entity_f1(pred, gold, mask, outside: int = 0):
    counts = Counter()
    for p, g, m in zip(pred.tolist(), gold.tolist(), mask.tolist()):
        if not m:
            continue
        if p != outside and p == g:
            counts["tp"] += 1
        else:
            counts["fp"] += p != outside
            counts["fn"] += g != outside
    precision = counts["tp"] / max(counts["tp"] + counts["fp"], 1)
    recall = counts["tp"] / max(counts["tp"] + counts["fn"], 1)
    return 2 * precision * recall / max(precision + recall, 1e-8)


@torch.no_grad()
def evaluate(model: BiLSTMTagger, loader, device="cpu"):
    model.eval()
    preds, golds, masks = [], [], []
    for tokens, labels in loader:
        tokens, labels = tokens.to(device), labels.to(device)
        logits = model(tokens)
        preds.append(logits.argmax(-1).flatten())
        golds.append(labels.flatten())
        masks.append((tokens != 0).flatten())
    return entity_f1(torch.cat(preds), torch.cat(golds), torch.cat(masks))
