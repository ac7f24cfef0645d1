import argparse

import torch

from depthnet.networks import MonoDepth


def options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="self-supervised monocular depth (toy)")
    parser.add_argument("--height", type=int, default=90, help="input image height")
    parser.add_argument("--width", type=int, default=128, help="input image width")
    parser.add_argument("--batch_size", type=int, default=2)
    parser.add_argument("--num_steps", type=int, default=2)
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    return parser.parse_args([])


def smoothness_loss(disp: torch.Tensor, img: torch.Tensor) -> torch.Tensor:
    grad_disp_x = (disp[..., :-1] - disp[..., 1:]).abs()
    grad_img_x = (img[..., :-1] - img[..., 1:]).abs().mean(1, keepdim=True)
    return (grad_disp_x * torch.exp(-grad_img_x)).mean()


def main() -> None:
    opt = options()
    torch.manual_seed(0)
    model = MonoDepth()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.learning_rate)
    for step in range(opt.num_steps):
        images = torch.rand(opt.batch_size, 3, opt.height, opt.width)
        disp = model(images)
        target = images.mean(1, keepdim=True)
        loss = (disp - target).abs().mean() + 1e-3 * smoothness_loss(disp, images)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
