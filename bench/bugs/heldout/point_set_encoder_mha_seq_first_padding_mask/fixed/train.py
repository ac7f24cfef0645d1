import torch
import torch.nn.functional as F

from data import pad_sets, random_point_sets
from model import PointSetClassifier


def main() -> None:
    torch.manual_seed(0)
    sets, labels = random_point_sets()
    model = PointSetClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    batch_size = 4
    for epoch in range(2):
        total = 0.0
        for i in range(0, len(sets), batch_size):
            points, mask = pad_sets(sets[i : i + batch_size])
            logits = model(points, mask)
            loss = F.cross_entropy(logits, labels[i : i + batch_size])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch}: {total:.3f}")


if __name__ == "__main__":
    main()
