"""Main script for ADDA: a source encoder trained on MNIST, adapted to USPS-like digits."""
import copy

import torch
from torch.utils.data import DataLoader, TensorDataset

import params
from core.adapt import train_tgt
from models import Discriminator, LeNetEncoder


def digits(n, shift, seed):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 1, 28, 28, generator=g) + shift
    labels = torch.randint(0, 10, (n,), generator=g)
    return DataLoader(TensorDataset(images, labels), batch_size=params.batch_size, shuffle=True,
                      generator=torch.Generator().manual_seed(seed))


if __name__ == "__main__":
    torch.manual_seed(0)
    src_data_loader = digits(24, 0.0, 1)
    tgt_data_loader = digits(24, 0.3, 2)
    src_encoder = LeNetEncoder()
    src_encoder.eval()
    for p in src_encoder.parameters():
        p.requires_grad_(False)
    critic = Discriminator(params.d_input_dims, params.d_hidden_dims, params.d_output_dims)
    tgt_encoder = copy.deepcopy(src_encoder)
    for p in tgt_encoder.parameters():
        p.requires_grad_(True)
    train_tgt(src_encoder, tgt_encoder, critic, src_data_loader, tgt_data_loader)
