import torch
import torch.nn as nn


class LateFusionClassifier(nn.Module):
    def __init__(self, image_dim: int, text_dim: int, hidden: int = 256, num_labels: int = 4) -> None:
        super().__init__()
        self.image_norm = nn.LayerNorm(image_dim)
        self.fuse = nn.Sequential(
            nn.Linear(image_dim + text_dim, hidden),
            nn.GELU(),
            nn.Dropout(0.1),
        )
        self.classify = nn.Linear(hidden, num_labels)

    def forward(self, image_feats: torch.Tensor, text_feats: torch.Tensor) -> torch.Tensor:
        joint = torch.cat([self.image_norm(image_feats), text_feats], dim=-1)
        return self.classify(self.fuse(joint))


def encode_batch(batch_size: int):
    """Cached features: ResNet-18 pooled image features and MiniLM sentence embeddings."""
    image_feats = torch.randn(batch_size, 512)
    text_feats = torch.randn(batch_size, 384)
    labels = torch.randint(0, 4, (batch_size,))
    return image_feats, text_feats, labels


def main() -> None:
    model = LateFusionClassifier(image_dim=512, text_dim=768, hidden=256, num_labels=4)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4, weight_decay=0.01)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    for step in range(2):
        image_feats, text_feats, labels = encode_batch(batch_size=4)
        logits = model(image_feats, text_feats)
        loss = criterion(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
