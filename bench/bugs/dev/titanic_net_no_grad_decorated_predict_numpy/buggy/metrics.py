import numpy as np


def roc_auc(y_true, scores):
    """Mann-Whitney form of the ROC AUC."""
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = y_true == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    return float((ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def accuracy(y_true, scores, threshold=0.5):
    return float(np.mean((scores > threshold) == (y_true == 1)))
