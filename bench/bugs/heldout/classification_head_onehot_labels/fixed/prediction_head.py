import torch
from torch import nn


class TextClassificationHead(nn.Module):
    """A feed-forward head on top of a pooled sentence vector, with its own loss."""

    def __init__(self, layer_dims=(64, 4), class_weights=None, task_name="text_classification"):
        super().__init__()
        layers = []
        for d_in, d_out in zip(layer_dims[:-1], layer_dims[1:]):
            layers.append(nn.Linear(d_in, d_out))
        self.feed_forward = nn.Sequential(*layers)
        self.num_labels = layer_dims[-1]
        self.task_name = task_name
        weight = torch.tensor(class_weights, dtype=torch.float) if class_weights else None
        self.loss_fct = nn.CrossEntropyLoss(weight=weight, reduction="none")

    def forward(self, pooled):
        return self.feed_forward(pooled)

    def logits_to_loss(self, logits, label_ids):
        return self.loss_fct(logits, label_ids.view(-1))

    def logits_to_preds(self, logits):
        return logits.argmax(dim=1)
