import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_np(t):
    return t.detach().cpu().numpy()


def V(a):
    return torch.from_numpy(np.ascontiguousarray(a)).float()


class ConvnetHead(nn.Module):
    def __init__(self, nf, n_classes, ps=0.25):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, nf, 3, padding=1), nn.BatchNorm2d(nf), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.classifier = nn.Sequential(nn.Dropout(ps), nn.Linear(nf, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))


class Learner:
    def __init__(self, data, model, lr=1e-2):
        self.data, self.model = data, model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
        self.crit = F.cross_entropy

    def fit(self, n_epochs):
        for epoch in range(n_epochs):
            self.model.train()
            for x, y in self.data["trn"]:
                loss = self.crit(self.model(x), y)
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            print(f"epoch {epoch}: trn_loss {loss.item():.4f} val_acc {self.validate():.3f}")

    def predict_with_targs(self):
        self.model.eval()
        with torch.no_grad():
            preds, targs = zip(*[(self.model(x), y) for x, y in self.data["val"]])
        return to_np(torch.cat(preds)), to_np(torch.cat(targs))

    def validate(self):
        preds, targs = self.predict_with_targs()
        return float((preds.argmax(1) == targs).mean())

    def predict_array(self, arr):
        with torch.no_grad():
            return to_np(self.model(V(arr)))


def batches(n, bs=8, sz=16, n_classes=3):
    return [(torch.randn(bs, 3, sz, sz), torch.randint(0, n_classes, (bs,))) for _ in range(n)]


if __name__ == "__main__":
    torch.manual_seed(0)
    data = {"trn": batches(4), "val": batches(2)}
    learn = Learner(data, ConvnetHead(16, 3))
    learn.fit(2)
    weights = learn.model.state_dict()

    inference = Learner(data, ConvnetHead(16, 3))
    inference.model.load_state_dict(weights)
    img = np.random.rand(1, 3, 16, 16).astype(np.float32)
    print("probs", F.softmax(torch.from_numpy(inference.predict_array(img)), dim=1))
