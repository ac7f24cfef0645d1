import torch
import torch.nn.functional as F


class Evaluator:
    """Teacher-forced loss and token accuracy on a held-out set."""

    def __init__(self, pad_id=0, batch_size=16):
        self.pad_id = pad_id
        self.batch_size = batch_size

    def evaluate(self, model, data):
        model.eval()
        total_loss, match, total = 0.0, 0, 0
        with torch.no_grad():
            for start in range(0, len(data[0]), self.batch_size):
                src = data[0][start : start + self.batch_size]
                tgt = data[1][start : start + self.batch_size]
                logits = model(src, tgt[:, :-1])
                gold = tgt[:, 1:]
                total_loss += F.cross_entropy(logits.transpose(1, 2), gold, ignore_index=self.pad_id, reduction="sum").item()
                keep = gold != self.pad_id
                match += (logits.argmax(-1) == gold)[keep].sum().item()
                total += keep.sum().item()
        model.train(True)
        return total_loss / total, match / total
