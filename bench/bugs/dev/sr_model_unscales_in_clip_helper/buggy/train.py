import logging

import torch
import torch.nn.functional as F

from sr_model import SRModel

OPT = {"scale": 2, "lr": 5e-4, "use_amp": True, "grad_clip": True, "total_iter": 8}


def paired_batch(batch_size=4, size=8):
    gt = torch.rand(batch_size, 3, size * 2, size * 2)
    lq = F.interpolate(gt, scale_factor=0.5, mode="bilinear", align_corners=False)
    return lq, gt


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = SRModel(OPT)
    for current_iter in range(1, OPT["total_iter"] + 1):
        loss = model.optimize_parameters(*paired_batch(), current_iter)
    logging.info("final l_pix %.4f", loss)


if __name__ == "__main__":
    main()
