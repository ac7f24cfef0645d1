import torch.nn.functional as F


class SiamActor:
    """Runs the network on a batch and computes the training loss and the statistics to log."""

    def __init__(self, net):
        self.net = net

    def __call__(self, data):
        response = self.net(data["template"], data["search"])
        loss = F.binary_cross_entropy_with_logits(response, data["label"])
        stats = {"Loss/total": loss, "Response/max": response.detach().max().item()}
        return loss, stats

    def train(self, mode=True):
        self.net.train(mode)
