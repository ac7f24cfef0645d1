import torch

DEVICE = torch.device("mps")
TILE_SIZE = 32
TILE_OVERLAP = 8
N_CHANNELS_OUT = 2
