import torch
import torch.nn as nn
import torch.nn.functional as F

config = {"num_epochs": 2, "batch_size": 4, "patch_size": 24, "lr": 1e-4, "adv_lambda": 1e-3}


class FPNGenerator(nn.Module):
    def __init__(self, nf=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, nf, 3, padding=1), nn.InstanceNorm2d(nf), nn.ReLU())
        self.down = nn.Sequential(nn.Conv2d(nf, nf * 2, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(nf * 2, nf, 3, padding=1), nn.ReLU())
        self.out = nn.Conv2d(nf, 3, 3, padding=1)

    def forward(self, x):
        h = self.enc(x)
        return torch.clamp(x + self.out(self.up(self.down(h)) + h), -1, 1)


class PatchDiscriminator(nn.Module):
    def __init__(self, nf=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, nf, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(nf, 1, 4, stride=2, padding=1),
        )

    def forward(self, x):
        return self.net(x)


class DeblurModel:
    def get_input(self, data):
        return data["a"], data["b"]

    def get_psnr(self, output, target):
        mse = F.mse_loss((output + 1) / 2, (target + 1) / 2).item()
        return 10 * torch.log10(torch.tensor(1.0 / max(mse, 1e-10))).item()


class Trainer:
    def __init__(self, config, train, val):
        self.config, self.train_dataset, self.val_dataset = config, train, val
        self.model = DeblurModel()
        self.netG, self.netD = FPNGenerator(), PatchDiscriminator()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=config["lr"])
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=config["lr"])
        self.criterionG = nn.L1Loss()

    def train(self):
        for epoch in range(self.config["num_epochs"]):
            self._run_epoch(epoch)
            val_loss, psnr = self._validate(epoch)
            print(f"epoch {epoch}: val loss {val_loss:.4f} psnr {psnr:.2f}")

    def _run_epoch(self, epoch):
        self.netG.train()
        for data in self.train_dataset:
            inputs, targets = self.model.get_input(data)
            outputs = self.netG(inputs)
            self.optimizer_D.zero_grad()
            loss_D = F.softplus(self.netD(outputs.detach())).mean() + F.softplus(-self.netD(targets)).mean()
            loss_D.backward()
            self.optimizer_D.step()
            self.optimizer_G.zero_grad()
            loss_G = self.criterionG(outputs, targets) + self.config["adv_lambda"] * F.softplus(-self.netD(outputs)).mean()
            loss_G.backward()
            self.optimizer_G.step()

    def _validate(self, epoch):
        self.netG.eval()
        losses, psnrs = [], []
        with torch.no_grad():
            for data in self.val_dataset:
                inputs, targets = self.model.get_input(data)
                outputs = self.netG(inputs)
                loss_content = self.criterionG(outputs, targets)
                losses.append(loss_content.item())
                psnrs.append(self.model.get_psnr(outputs, targets))
        self.netG.train()
        return sum(losses) / len(losses), sum(psnrs) / len(psnrs)


def pairs(n, size):
    sharp = torch.rand(n, 3, size, size) * 2 - 1
    blurred = F.avg_pool2d(sharp, 3, stride=1, padding=1)
    return [{"a": blurred[i:i + 4], "b": sharp[i:i + 4]} for i in range(0, n, 4)]


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer(config, pairs(12, config["patch_size"]), pairs(8, config["patch_size"])).train()
