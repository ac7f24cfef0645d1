import torch
import torch.nn.functional as F

from heatmap_utils import compute_attention_scores
from model import CLAM_SB


def synthetic_bags(n, seed):
    gen = torch.Generator().manual_seed(seed)
    bags = {}
    for i in range(n):
        label = i % 2
        feats = torch.randn(20, 128, generator=gen) + 0.5 * label
        bags[f"slide_{i:03d}"] = (feats, torch.tensor([label]))
    return bags


def main():
    torch.manual_seed(0)
    train_bags = synthetic_bags(8, 0)
    model = CLAM_SB()
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-4, weight_decay=1e-5)
    for epoch in range(2):
        model.train()
        for slide_id, (feats, label) in train_bags.items():
            logits, _, _ = model(feats)
            loss = F.cross_entropy(logits, label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")

    test_slides = {k: v[0] for k, v in synthetic_bags(4, 1).items()}
    for slide_id, r in compute_attention_scores(model, test_slides).items():
        print(slide_id, r)


if __name__ == "__main__":
    main()
