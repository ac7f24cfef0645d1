import torch
from torch.utils.data import DataLoader, TensorDataset


def radar_frames(n, size, generator):
    """Gaussian rain cells at random positions, intensity in [0, 1]."""
    ys, xs = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    centres = torch.rand(n, 2, generator=generator) * size
    width = 1.5 + 2 * torch.rand(n, generator=generator)
    d2 = (ys[None] - centres[:, 0, None, None]) ** 2 + (xs[None] - centres[:, 1, None, None]) ** 2
    return torch.exp(-d2 / (2 * width[:, None, None] ** 2)).unsqueeze(1)


def build_loader(args, generator):
    frames = radar_frames(args.frames, args.size, generator)
    return DataLoader(TensorDataset(frames), batch_size=args.micro_batch, shuffle=True, generator=generator)
