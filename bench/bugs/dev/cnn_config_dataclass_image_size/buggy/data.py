import torch


def make_split(n, image_size):
    """Synthetic stand-in for the microscopy crops, resized on load."""
    images = torch.rand(n, 3, image_size, image_size)
    labels = torch.randint(0, 5, (n,))
    return images, labels
