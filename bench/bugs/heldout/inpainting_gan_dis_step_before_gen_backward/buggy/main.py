import torch

from src.models import InpaintingModel

CONFIG = {"LR": 1e-4, "D2G_LR": 0.1, "INPAINT_ADV_LOSS_WEIGHT": 0.1, "L1_LOSS_WEIGHT": 1.0,
          "BATCH_SIZE": 2, "INPUT_SIZE": 32, "MAX_ITERS": 3}


def random_masks(n, size, generator):
    masks = torch.zeros(n, 1, size, size)
    for i in range(n):
        top, left = torch.randint(0, size // 2, (2,), generator=generator).tolist()
        masks[i, :, top:top + size // 3, left:left + size // 3] = 1
    return masks


def train(config):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = InpaintingModel(config)
    model.train()
    for iteration in range(config["MAX_ITERS"]):
        images = torch.rand(config["BATCH_SIZE"], 3, config["INPUT_SIZE"], config["INPUT_SIZE"], generator=g)
        masks = random_masks(config["BATCH_SIZE"], config["INPUT_SIZE"], g)
        outputs, gen_loss, dis_loss, logs = model.process(images, masks)
        model.backward(gen_loss, dis_loss)
        print(iteration, ", ".join(f"{k}: {v:.4f}" for k, v in logs))


if __name__ == "__main__":
    train(CONFIG)
