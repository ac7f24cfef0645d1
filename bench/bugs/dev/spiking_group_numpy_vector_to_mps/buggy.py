import numpy as np
import torch

DEVICE = "mps"


class NeuronGroup:
    """A population of leaky integrate-and-fire neurons whose state lives in torch tensors."""

    def __init__(self, size, tau=20.0, threshold=1.0, device=DEVICE):
        self.size = size
        self.tau = tau
        self.threshold = threshold
        self.device = device
        self.voltage = self.vector(0.0)
        self.bias = self.vector("uniform")

    def vector(self, mode=0.0):
        if mode == "uniform":
            values = np.random.uniform(0.0, 0.7, self.size)
        else:
            values = np.full(self.size, mode)
        tensor = torch.from_numpy(values)
        if torch.backends.mps.is_available():
            tensor = tensor.to(self.device)
        return tensor

    def step(self, current):
        self.voltage += (-self.voltage + self.bias + current) / self.tau
        spikes = self.voltage >= self.threshold
        self.voltage[spikes] = 0.0
        return spikes


if __name__ == "__main__":
    np.random.seed(0)
    torch.manual_seed(0)
    group = NeuronGroup(100)
    n_spikes = 0
    for t in range(50):
        drive = torch.rand(group.size, dtype=group.voltage.dtype, device=group.voltage.device) * 2.0
        n_spikes += int(group.step(drive).sum())
    print("spikes:", n_spikes)
