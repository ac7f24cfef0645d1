import torch
import torch.nn.functional as F

from model import CoordinateMLP


def image_grid(h, w):
    ys, xs = torch.meshgrid(torch.linspace(0, 1, h), torch.linspace(0, 1, w), indexing="ij")
    return torch.stack([xs, ys], dim=-1).view(-1, 2)


def main(steps=3):
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    coords = image_grid(16, 16).to(device)
    target = torch.rand(16 * 16, 3).to(device)
    model = CoordinateMLP().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        opt.zero_grad()
        loss = F.mse_loss(model(coords), target)
        loss.backward()
        opt.step()
        print(f"step {step}: psnr {-10 * torch.log10(loss).item():.2f} dB")


if __name__ == "__main__":
    main()
