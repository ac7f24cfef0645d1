import torch.nn.functional as F


class WeightedLoss:
    """Sum of per-key MSE terms; returns the total and its contributions, keyed as in the config."""

    def __init__(self, coeffs):
        self.coeffs = dict(coeffs)

    def __call__(self, pred, ref):
        contrib = {}
        total = 0.0
        for key, coeff in self.coeffs.items():
            term = F.mse_loss(pred[key], ref[key])
            contrib[key] = term
            total = total + coeff * term
        contrib["loss"] = total
        return contrib
