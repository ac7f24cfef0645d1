import torch
import torch.nn as nn
import torch.nn.functional as F

config = {
    "num_classes": 3,
    "num_prototypes": 6,
    "proto_dim": 8,
    "num_warm_epochs": 1,
    "num_train_epochs": 3,
    "joint_lr_step_size": 1,
}


class PrototypeNet(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2))
        self.add_on = nn.Sequential(nn.Conv2d(8, cfg["proto_dim"], 1), nn.Sigmoid())
        self.prototypes = nn.Parameter(torch.rand(cfg["num_prototypes"], cfg["proto_dim"]))
        self.last_layer = nn.Linear(cfg["num_prototypes"], cfg["num_classes"], bias=False)

    def forward(self, x):
        z = self.add_on(self.features(x)).flatten(2).transpose(1, 2)
        dists = torch.cdist(z, self.prototypes.expand(z.size(0), -1, -1)).min(dim=1).values
        return self.last_layer(torch.log((dists + 1) / (dists + 1e-4)))


def train(model, batches, optimizer):
    model.train()
    for x, y in batches:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def make_batches(n=4):
    return [(torch.randn(4, 3, 8, 8), torch.randint(0, config["num_classes"], (4,))) for _ in range(n)]


ppnet = PrototypeNet(config)
joint_optimizer = torch.optim.Adam(
    [{"params": ppnet.features.parameters(), "lr": 1e-4}, {"params": ppnet.add_on.parameters(), "lr": 3e-3},
     {"params": [ppnet.prototypes], "lr": 3e-3}]
)
joint_lr_scheduler = torch.optim.lr_scheduler.StepLR(joint_optimizer, step_size=config["joint_lr_step_size"], gamma=0.1)
warm_optimizer = torch.optim.Adam(
    [{"params": ppnet.add_on.parameters(), "lr": 3e-3}, {"params": [ppnet.prototypes], "lr": 3e-3}]
)

for epoch in range(config["num_train_epochs"]):
    if epoch < config["num_warm_epochs"]:
        loss = train(ppnet, make_batches(), warm_optimizer)
    else:
        loss = train(ppnet, make_batches(), joint_optimizer)
        joint_lr_scheduler.step()
    print(f"epoch {epoch}: loss {loss:.4f}")
