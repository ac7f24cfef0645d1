import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.fc = nn.Linear(width * 16, 10)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class FeatureDistiller:
    def __init__(self, teacher, student):
        self.teacher, self.student = teacher.eval(), student
        self.adapter = nn.Conv2d(8, 32, 1)
        self.captured = {}
        teacher.features.register_forward_hook(lambda m, i, o: self.captured.__setitem__("teacher", o))
        student.features.register_forward_hook(lambda m, i, o: self.captured.__setitem__("student", o))
        params = list(student.parameters()) + list(self.adapter.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-3)

    def step(self, x, y):
        with torch.no_grad():
            t_logits = self.teacher(x)
        s_logits = self.student(x)
        feat_loss = F.mse_loss(self.adapter(self.captured["student"]), self.captured["teacher"])
        kd = F.kl_div(F.log_softmax(s_logits / 2, 1), F.softmax(t_logits / 2, 1), reduction="batchmean")
        loss = F.cross_entropy(s_logits, y) + kd + feat_loss
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


distiller = FeatureDistiller(ConvNet(32), ConvNet(8))
distiller.teacher(torch.randn(2, 3, 16, 16))
for i in range(2):
    print(distiller.step(torch.randn(4, 3, 16, 16), torch.randint(0, 10, (4,))))
