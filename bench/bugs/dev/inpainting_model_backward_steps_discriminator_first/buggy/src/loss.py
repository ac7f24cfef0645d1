import torch
import torch.nn as nn


class AdversarialLoss(nn.Module):
    def __init__(self, type="nsgan", target_real_label=1.0, target_fake_label=0.0):
        super().__init__()
        self.type = type
        self.register_buffer("real_label", torch.tensor(target_real_label))
        self.register_buffer("fake_label", torch.tensor(target_fake_label))
        if type == "nsgan":
            self.criterion = nn.BCELoss()
        elif type == "lsgan":
            self.criterion = nn.MSELoss()
        else:
            raise ValueError(type)

    def __call__(self, outputs, is_real, is_disc=None):
        labels = (self.real_label if is_real else self.fake_label).expand_as(outputs)
        return self.criterion(outputs, labels)
