import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from models import SRModel

opt = {
    "network_G": {"nf": 16, "nb": 2, "upscale": 2},
    "train": {"lr_G": 2e-4, "lr_steps": [6, 10], "lr_gamma": 0.5, "niter": 12, "warmup_iter": -1},
    "datasets": {"batch_size": 4, "n_images": 16, "gt_size": 24},
}


def make_pairs(n, gt_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    gt = torch.rand(n, 3, gt_size, gt_size, generator=g)
    return F.interpolate(gt, scale_factor=0.5, mode="bicubic", align_corners=False), gt


def main():
    torch.manual_seed(0)
    ds = opt["datasets"]
    train_loader = DataLoader(TensorDataset(*make_pairs(ds["n_images"], ds["gt_size"])), batch_size=ds["batch_size"], shuffle=True)
    model = SRModel(opt)
    current_step, total_iters = 0, opt["train"]["niter"]
    while current_step < total_iters:
        for train_data in train_loader:
            current_step += 1
            if current_step > total_iters:
                break
            model.feed_data(train_data)
            model.optimize_parameters(current_step)
            model.update_learning_rate(current_step, warmup_iter=opt["train"]["warmup_iter"])
            if current_step % 4 == 0:
                print(f"iter {current_step} lr {model.get_current_learning_rate():.2e} l_pix {model.log_dict['l_pix']:.4f}")


if __name__ == "__main__":
    main()
