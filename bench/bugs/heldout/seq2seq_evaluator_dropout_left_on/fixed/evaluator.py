import torch


class Evaluator:
    """Computes the loss and token accuracy of a model on a data set."""

    def __init__(self, loss, batch_size=4):
        self.loss = loss
        self.batch_size = batch_size

    def evaluate(self, model, data):
        model.eval()
        src, tgt = data
        total, correct, count = 0.0, 0, 0
        with torch.no_grad():
            for i in range(0, len(src), self.batch_size):
                s, t = src[i:i + self.batch_size], tgt[i:i + self.batch_size]
                logits = model(s, t[:, :-1])
                total += self.loss(logits.transpose(1, 2), t[:, 1:]).item()
                correct += (logits.argmax(-1) == t[:, 1:]).sum().item()
                count += t[:, 1:].numel()
        return total, correct / count
