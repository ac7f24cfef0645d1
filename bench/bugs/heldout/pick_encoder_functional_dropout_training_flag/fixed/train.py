import torch

from model.pick import PICKModel
from trainer import Trainer


def synthetic_documents(n_batches, generator, b=2, n=3, t=6):
    batches = []
    for _ in range(n_batches):
        mask = (torch.rand(b, n, t, generator=generator) > 0.2).long()
        mask[..., 0] = 1
        tags = torch.randint(0, 5, (b, n, t), generator=generator).masked_fill(mask == 0, -100)
        batches.append({"image": torch.rand(b, 3, 32, 32, generator=generator),
                        "boxes": torch.rand(b, n, 3, 16, 16, generator=generator),
                        "text": torch.randint(1, 60, (b, n, t), generator=generator) * mask,
                        "mask": mask, "tags": tags})
    return batches


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = PICKModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    Trainer(model, optimizer, synthetic_documents(3, g), synthetic_documents(2, g), epochs=2).train()


if __name__ == "__main__":
    main()
