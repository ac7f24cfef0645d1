import torch
import torch.nn.functional as F

from model import PatchMixer


def main():
    torch.manual_seed(11)
    model = PatchMixer()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    for step in range(4):
        images = torch.randn(8, 3, 16, 16)
        labels = torch.randint(0, 5, (8,))
        loss = F.cross_entropy(model(images), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
