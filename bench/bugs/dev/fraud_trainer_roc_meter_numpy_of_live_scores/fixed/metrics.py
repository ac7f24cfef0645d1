import numpy as np


def roc_auc(scores, labels):
    """Mann-Whitney estimate of the area under the ROC curve."""
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


class RocAucMeter:
    def __init__(self):
        self.reset()

    def reset(self):
        self.scores, self.labels = [], []

    def update(self, y_pred, y_true):
        self.scores.append(y_pred.cpu().numpy())
        self.labels.append(y_true.cpu().numpy().astype(int))

    def compute(self):
        return roc_auc(np.concatenate(self.scores), np.concatenate(self.labels))
