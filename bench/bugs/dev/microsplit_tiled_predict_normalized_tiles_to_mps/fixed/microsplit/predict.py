import logging

import numpy as np
import torch

from microsplit import settings

logger = logging.getLogger(__name__)


class TiledPredictor:
    def __init__(self, model, data_mean, data_std, tile=settings.TILE_SIZE, overlap=settings.TILE_OVERLAP):
        self.device = settings.DEVICE
        self.model = model.to(self.device).eval()
        self.data_mean = data_mean
        self.data_std = data_std
        self.tile = tile
        self.step = tile - overlap

    def _normalize(self, image):
        return (image - self.data_mean) / self.data_std

    def _starts(self, length):
        starts = list(range(0, max(length - self.tile, 0) + 1, self.step))
        if starts[-1] + self.tile < length:
            starts.append(length - self.tile)
        return starts

    @torch.no_grad()
    def predict(self, image):
        image = self._normalize(image).astype(np.float32)
        h, w = image.shape
        out = np.zeros((settings.N_CHANNELS_OUT, h, w), dtype=np.float32)
        weight = np.zeros((h, w), dtype=np.float32)
        for r in self._starts(h):
            for c in self._starts(w):
                tile = image[r:r + self.tile, c:c + self.tile]
                x = torch.from_numpy(np.ascontiguousarray(tile[None, None])).to(self.device)
                pred = self.model(x)[0].cpu().numpy()
                out[:, r:r + self.tile, c:c + self.tile] += pred
                weight[r:r + self.tile, c:c + self.tile] += 1.0
        logger.info("predicted %d tiles", int(weight.size / self.tile**2))
        return out / weight
