import torch

from model import PatchDiscriminator, PyramidGenerator
from trainer import DehazeTrainer


def hazy_pairs(n: int = 8, size: int = 32):
    clear = torch.rand(n, 3, size, size)
    airlight = 0.8
    transmission = torch.rand(n, 1, 1, 1) * 0.5 + 0.3
    hazy = clear * transmission + airlight * (1 - transmission)
    return hazy, clear


def main() -> None:
    torch.manual_seed(0)
    hazy, clear = hazy_pairs()
    trainer = DehazeTrainer(PyramidGenerator(), PatchDiscriminator())
    for epoch in range(2):
        for i in range(0, len(hazy), 4):
            logs = trainer.step(hazy[i : i + 4], clear[i : i + 4])
        print(f"epoch {epoch}: D {logs['d']:.3f} G {logs['g']:.3f}")


if __name__ == "__main__":
    main()
