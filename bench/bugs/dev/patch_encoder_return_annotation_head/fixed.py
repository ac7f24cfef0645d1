import torch
import torch.nn as nn
from jaxtyping import Float
from torch import Tensor


class PatchEncoder(nn.Module):
    def __init__(self, patch: int = 8, width: int = 192) -> None:
        super().__init__()
        self.proj = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
        self.mixer = nn.TransformerEncoderLayer(width, nhead=4, dim_feedforward=256, batch_first=True)

    def forward(self, images: Float[Tensor, "B 3 32 32"]) -> Float[Tensor, "B 192"]:
        tokens = self.proj(images).flatten(2).transpose(1, 2)
        return self.mixer(tokens).mean(dim=1)


class LinearProbe:
    """Trains a linear classifier on frozen encoder features."""

    def __init__(self, encoder: PatchEncoder, num_classes: int = 10) -> None:
        self.encoder = encoder.eval()
        self.classifier = nn.Linear(192, num_classes)
        self.optimizer = torch.optim.SGD(self.classifier.parameters(), lr=0.1)

    def step(self, images: Tensor, labels: Tensor) -> float:
        with torch.no_grad():
            feats = self.encoder(images)
        logits = self.classifier(feats)
        loss = nn.functional.cross_entropy(logits, labels)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    probe = LinearProbe(PatchEncoder())
    print(probe.step(torch.randn(4, 3, 32, 32), torch.randint(0, 10, (4,))))
