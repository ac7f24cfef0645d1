import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, in_ch, out_ch, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_ch)
        self.down = None if stride == 1 and in_ch == out_ch else nn.Conv2d(in_ch, out_ch, 1, stride=stride)

    def forward(self, x):
        identity = x if self.down is None else self.down(x)
        return F.relu(self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x))))) + identity)


class TinyResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = BasicBlock(16, 16)
        self.layer2 = BasicBlock(16, 32, stride=2)
        self.layer3 = BasicBlock(32, 64, stride=2)
        self.fc = nn.Linear(64, 10)


class FastRCNNHead(nn.Module):
    def __init__(self, in_ch, num_classes, pool_size=4):
        super().__init__()
        self.pool_size = pool_size
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(in_ch * pool_size * pool_size, 64), nn.ReLU())
        self.cls_score = nn.Linear(64, num_classes)
        self.bbox_pred = nn.Linear(64, 4 * num_classes)

    def forward(self, rois):
        h = self.fc(F.adaptive_max_pool2d(rois, self.pool_size))
        return self.cls_score(h), self.bbox_pred(h)


class Detector(nn.Module):
    def __init__(self, backbone, num_classes=5):
        super().__init__()
        conv_body_layers = [backbone.conv1, backbone.bn1, backbone.relu, backbone.maxpool, backbone.layer1, backbone.layer2]
        self.conv_body = nn.Sequential(*conv_body_layers)
        self.conv_head = backbone.layer3
        self.head = FastRCNNHead(64, num_classes)

    def forward(self, images, boxes):
        feats = self.conv_body(images)
        rois = torch.stack([feats[i, :, y0:y1, x0:x1].mean(dim=(1, 2), keepdim=True).expand(-1, 4, 4)
                            for i, (y0, y1, x0, x1) in boxes])
        return self.head(self.conv_head(rois))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Detector(TinyResNet())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    images = torch.randn(2, 3, 64, 64)
    boxes = [(0, (0, 4, 0, 4)), (1, (2, 8, 2, 8))]
    labels = torch.tensor([1, 3])
    for step in range(3):
        cls_score, bbox_pred = model(images, boxes)
        loss = F.cross_entropy(cls_score, labels) + 0.1 * bbox_pred.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, round(loss.item(), 4))
