"""Part-based Convolutional Baseline (PCB) for person re-identification: the feature map is cut into horizontal
stripes, each stripe has its own classifier, and the identity loss is summed over the stripes."""
import argparse

import torch
import torch.nn as nn


class PCBModel(nn.Module):
    def __init__(self, num_stripes=4, local_conv_out_channels=32, num_classes=12):
        super().__init__()
        self.num_stripes = num_stripes
        self.base = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                  nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU())
        self.local_conv_list = nn.ModuleList(
            nn.Sequential(nn.Conv2d(64, local_conv_out_channels, 1), nn.BatchNorm2d(local_conv_out_channels), nn.ReLU())
            for _ in range(num_stripes))
        self.fc_list = nn.ModuleList(nn.Linear(local_conv_out_channels, num_classes) for _ in range(num_stripes))

    def forward(self, x):
        feat = self.base(x)
        stripe_h = feat.size(2) // self.num_stripes
        local_feat_list, logits_list = [], []
        for i in range(self.num_stripes):
            local_feat = feat[:, :, i * stripe_h:(i + 1) * stripe_h, :].mean(dim=(2, 3), keepdim=True)
            local_feat = self.local_conv_list[i](local_feat).flatten(1)
            local_feat_list.append(local_feat)
            logits_list.append(self.fc_list[i](local_feat))
        return local_feat_list, logits_list


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num_stripes", type=int, default=4)
    parser.add_argument("--base_lr", type=float, default=0.05)
    parser.add_argument("--total_epochs", type=int, default=2)
    cfg = parser.parse_args([])
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = PCBModel(num_stripes=cfg.num_stripes)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.base_lr, momentum=0.9, weight_decay=5e-4)
    for ep in range(cfg.total_epochs):
        ims = torch.rand(8, 3, 64, 32, generator=g)
        labels_var = torch.randint(0, 12, (8,), generator=g)
        _, logits_list = model(ims)
        loss = torch.sum(torch.cat([criterion(logits, labels_var).unsqueeze(0) for logits in logits_list]))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"Ep {ep + 1}, loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
