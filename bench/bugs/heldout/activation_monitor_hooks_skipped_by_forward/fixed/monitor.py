from collections import defaultdict

import torch
import torch.nn as nn


class ActivationMonitor:
    """Records the mean activation of every ReLU through forward hooks."""

    def __init__(self, model: nn.Module):
        self.stats = defaultdict(list)
        self.handles = [
            m.register_forward_hook(self._hook(name)) for name, m in model.named_modules() if isinstance(m, nn.ReLU)
        ]

    def _hook(self, name):
        def record(module, inputs, output):
            self.stats[name].append(output.detach().gt(0).float().mean().item())

        return record

    def dead_fraction(self):
        return {name: 1 - sum(v) / len(v) for name, v in self.stats.items()}

    def close(self):
        for h in self.handles:
            h.remove()
