import torch
import torch.nn.functional as F

from config import InpaintConfig
from model import CoarseToFineGenerator


def random_box_masks(n: int, size: int, gen: torch.Generator) -> torch.Tensor:
    masks = torch.zeros(n, 1, size, size)
    for i in range(n):
        top, left = torch.randint(0, size // 2, (2,), generator=gen).tolist()
        masks[i, :, top:top + size // 4, left:left + size // 4] = 1.0
    return masks


def main() -> None:
    cfg = InpaintConfig()
    gen = torch.Generator().manual_seed(1)
    torch.manual_seed(1)
    netG = CoarseToFineGenerator(cfg)
    optG = torch.optim.Adam(netG.parameters(), lr=cfg.lr, betas=(0.5, 0.999))
    for it in range(cfg.iterations):
        images = torch.rand(cfg.batch_size, 3, cfg.image_size, cfg.image_size, generator=gen) * 2 - 1
        holes = random_box_masks(cfg.batch_size, cfg.image_size, gen)
        fake = netG(images, holes)
        l1 = F.l1_loss(fake * holes, images * holes) + 0.5 * F.l1_loss(fake * (1 - holes), images * (1 - holes))
        optG.zero_grad()
        l1.backward()
        optG.step()
        print(f"iter {it}: l1 {l1.item():.4f}")


if __name__ == "__main__":
    main()
