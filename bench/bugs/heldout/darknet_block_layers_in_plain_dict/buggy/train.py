import torch
import torch.nn.functional as F

from darknet import TinyDarknet


def main(steps=3):
    model = TinyDarknet()
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    n_params = sum(p.numel() for p in model.parameters())
    for step in range(steps):
        images = torch.rand(2, 3, 32, 32)
        preds = model(images)
        targets = torch.rand_like(preds)
        loss = F.binary_cross_entropy_with_logits(preds, targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} params {n_params}")


if __name__ == "__main__":
    main()
