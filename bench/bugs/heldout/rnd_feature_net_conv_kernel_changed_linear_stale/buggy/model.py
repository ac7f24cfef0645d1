import torch.nn as nn


def conv_encoder(in_channels, convs):
    layers, c = [], in_channels
    for out_c, k, s in convs:
        layers += [nn.Conv2d(c, out_c, kernel_size=k, stride=s), nn.LeakyReLU()]
        c = out_c
    layers.append(nn.Flatten())
    return nn.Sequential(*layers)


class RNDModel(nn.Module):
    def __init__(self, in_channels, target_convs, predictor_convs, feature_dim=64):
        super().__init__()
        self.predictor = nn.Sequential(
            conv_encoder(in_channels, predictor_convs),
            nn.Linear(7 * 7 * 64, 256), nn.ReLU(), nn.Linear(256, feature_dim),
        )
        self.target = nn.Sequential(conv_encoder(in_channels, target_convs), nn.Linear(7 * 7 * 64, feature_dim))
        for p in self.target.parameters():
            p.requires_grad = False

    def forward(self, next_obs):
        return self.predictor(next_obs), self.target(next_obs)
