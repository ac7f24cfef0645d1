import torch
import torch.nn.functional as F

from model import DiscreteVAE

hparams = {"image_size": 16, "batch_size": 4, "num_steps": 4, "lr": 1e-3, "kl_weight": 0.1}


class Trainer:
    def __init__(self, model, hparams):
        self.model = model
        self.hparams = hparams
        self.optim = torch.optim.Adam(model.parameters(), lr=hparams["lr"])
        self.global_step = 0

    def train_step(self, images):
        recon, kl_div = self.model(images)
        loss = F.mse_loss(recon, images) + self.hparams["kl_weight"] * kl_div
        self.optim.zero_grad()
        loss.backward()
        self.optim.step()
        self.global_step += 1
        return loss.item()

    def train(self, batches):
        self.model.train()
        for images in batches:
            loss = self.train_step(images)
            print(f"[TRAIN] GS: {self.global_step}, Loss: {loss:.5f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    size = hparams["image_size"]
    batches = [torch.rand(hparams["batch_size"], 3, size, size) for _ in range(hparams["num_steps"])]
    Trainer(DiscreteVAE(), hparams).train(batches)
