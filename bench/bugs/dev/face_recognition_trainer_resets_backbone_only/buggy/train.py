import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from backbone import EmbeddingNet
from heads import ArcMarginProduct
from trainer import FaceTrainer

NUM_IDENTITIES = 6


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    faces = torch.randn(48, 3, 16, 16)
    ids = torch.randint(0, NUM_IDENTITIES, (48,))
    loader = DataLoader(TensorDataset(faces, ids), batch_size=12, shuffle=True)
    model = EmbeddingNet(embedding_size=16)
    metric_fc = ArcMarginProduct(16, NUM_IDENTITIES, s=30.0, m=0.5)
    FaceTrainer(model, metric_fc).train(loader, epochs=2)


if __name__ == "__main__":
    main()
