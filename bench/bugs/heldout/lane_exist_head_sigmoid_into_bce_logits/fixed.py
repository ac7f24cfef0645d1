"""Lane detection (SCNN-style): a segmentation head for the lane masks and an existence head per lane slot."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PlainDecoder(nn.Module):
    def __init__(self, in_ch, num_classes):
        super().__init__()
        self.dropout = nn.Dropout2d(0.1)
        self.conv8 = nn.Conv2d(in_ch, num_classes, 1)

    def forward(self, x, img_size):
        x = self.conv8(self.dropout(x))
        return F.interpolate(x, size=img_size, mode="bilinear", align_corners=False)


class ExistHead(nn.Module):
    def __init__(self, in_ch, num_lanes, feat_hw):
        super().__init__()
        self.dropout = nn.Dropout2d(0.1)
        self.conv8 = nn.Conv2d(in_ch, num_lanes + 1, 1)
        self.fc9 = nn.Linear((num_lanes + 1) * feat_hw[0] * feat_hw[1] // 4, 32)
        self.fc10 = nn.Linear(32, num_lanes)

    def forward(self, x):
        x = F.softmax(self.conv8(self.dropout(x)), dim=1)
        x = F.avg_pool2d(x, 2, stride=2, padding=0)
        x = F.relu(self.fc9(x.flatten(1)))
        exist = self.fc10(x)
        return exist


class LaneNet(nn.Module):
    def __init__(self, num_lanes=4, img_size=(32, 64)):
        super().__init__()
        self.img_size = img_size
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
        feat_hw = (img_size[0] // 4, img_size[1] // 4)
        self.decoder = PlainDecoder(32, num_lanes + 1)
        self.heads = ExistHead(32, num_lanes, feat_hw)

    def forward(self, img):
        fea = self.backbone(img)
        return {"seg": self.decoder(fea, self.img_size), "exist": self.heads(fea)}


class LaneSegLoss(nn.Module):
    def __init__(self, num_lanes=4, bg_weight=0.4, exist_weight=0.1):
        super().__init__()
        weights = torch.ones(num_lanes + 1)
        weights[0] = bg_weight
        self.criterion = nn.NLLLoss(weight=weights)
        self.bce = nn.BCEWithLogitsLoss()
        self.exist_weight = exist_weight

    def forward(self, output, batch):
        seg_loss = self.criterion(F.log_softmax(output["seg"], dim=1), batch["label"].long())
        exist_loss = self.bce(output["exist"], batch["exist"].float())
        return seg_loss + self.exist_weight * exist_loss


def synthetic_batch(n, num_lanes, img_size, generator):
    return {
        "img": torch.rand(n, 3, *img_size, generator=generator),
        "label": torch.randint(0, num_lanes + 1, (n, *img_size), generator=generator),
        "exist": torch.randint(0, 2, (n, num_lanes), generator=generator),
    }


def main():
    torch.manual_seed(0)
    net = LaneNet()
    loss_fn = LaneSegLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.025, momentum=0.9, weight_decay=1e-4)
    g = torch.Generator().manual_seed(0)
    for it in range(3):
        batch = synthetic_batch(2, 4, (32, 64), g)
        output = net(batch["img"])
        loss = loss_fn(output, batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
