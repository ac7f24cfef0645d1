import torch


def predict(model, data, batch_size=4):
    """Greedy token predictions and the summed loss on a data set."""
    model.eval()
    total, hyps = 0.0, []
    with torch.no_grad():
        for i in range(0, len(data[0]), batch_size):
            src, trg = data[0][i:i + batch_size], data[1][i:i + batch_size]
            logits = model(src)
            total += torch.nn.functional.cross_entropy(logits.transpose(1, 2), trg, reduction="sum").item()
            hyps.append(logits.argmax(-1))
    return total, torch.cat(hyps)
