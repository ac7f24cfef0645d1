"""Visualise what each detection layer of a small YOLO-style detector responds to: objectness heatmaps per head."""
import argparse

import numpy as np
import torch
import torch.nn as nn


def conv_bn(c_in, c_out, stride=1):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False), nn.BatchNorm2d(c_out), nn.SiLU())


class Detect(nn.Module):
    def __init__(self, nc=3, na=3, ch=(16, 32, 64)):
        super().__init__()
        self.no = nc + 5
        self.na = na
        self.m = nn.ModuleList(nn.Conv2d(c, self.no * self.na, 1) for c in ch)

    def forward(self, feats):
        outs = []
        for conv, f in zip(self.m, feats):
            bs, _, ny, nx = f.shape
            outs.append(conv(f).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous())
        return outs


class TinyYolo(nn.Module):
    def __init__(self, nc=3):
        super().__init__()
        self.stem = conv_bn(3, 16, 2)
        self.p3 = conv_bn(16, 16, 2)
        self.p4 = conv_bn(16, 32, 2)
        self.p5 = conv_bn(32, 64, 2)
        self.detect = Detect(nc)

    def forward(self, x):
        p3 = self.p3(self.stem(x))
        p4 = self.p4(p3)
        p5 = self.p5(p4)
        return self.detect([p3, p4, p5])


def letterbox(img, size):
    h, w = img.shape[-2:]
    scale = size / max(h, w)
    resized = nn.functional.interpolate(img, scale_factor=scale, mode="bilinear", align_corners=False)
    out = torch.full((img.size(0), 3, size, size), 0.5)
    out[..., : resized.shape[-2], : resized.shape[-1]] = resized
    return out


def plot_multi_heatmap(*arrays, row=None, col=None):
    """Lays the heatmaps out on one canvas (row x col), each min-max normalised; returns the canvas."""
    col = col or len(arrays)
    row = row or int(np.ceil(len(arrays) / col))
    tiles = []
    for i, array in enumerate(arrays):
        if isinstance(array, torch.Tensor):
            array = array.cpu().numpy()
        array = (array - array.min()) / (np.ptp(array) + 1e-9)
        tiles.append(np.kron(array, np.ones((32 // array.shape[0], 32 // array.shape[1]))))
    return np.concatenate(tiles, axis=1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--img-size", type=int, default=64)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = TinyYolo()
    model.eval()
    img = torch.rand(1, 3, 48, 64)
    outs = model(letterbox(img, args.img_size))
    heatmaps = [out[0, :, :, :, 4].sigmoid().amax(dim=0) for out in outs]
    canvas = plot_multi_heatmap(*heatmaps)
    print("canvas", canvas.shape, float(canvas.mean()))


if __name__ == "__main__":
    main()
