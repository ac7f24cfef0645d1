from typing import List

import torch
from torch.utils.data import DataLoader

from molprop.models import FingerprintFFN


def predict(model: FingerprintFFN, data_loader: DataLoader, scaler=None) -> List[List[float]]:
    model.eval()
    preds = []
    for fps, _ in data_loader:
        with torch.no_grad():
            batch_preds = model(fps)
        batch_preds = batch_preds.tolist()
        if scaler is not None:
            batch_preds = [[p * scaler["std"] + scaler["mean"] for p in row] for row in batch_preds]
        preds.extend(batch_preds)
    return preds
