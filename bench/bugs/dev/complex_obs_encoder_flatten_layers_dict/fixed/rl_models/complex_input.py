import torch
import torch.nn as nn


def conv_encoder(channels, out_dim):
    return nn.Sequential(
        nn.Conv2d(channels, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, out_dim),
    )


class ComplexInputNetwork(nn.Module):
    """Encodes a dict observation: images through a CNN each, discrete ids one-hot, vectors through a dense
    layer, then a shared head over the concatenation."""

    def __init__(self, obs_space, num_outputs, post_fcnet_hiddens=(64,)):
        super().__init__()
        self.obs_space = obs_space
        self.cnns = {}
        self.one_hot = {}
        self.flatten = {}
        concat_size = 0
        for key, (kind, spec) in obs_space.items():
            if kind == "image":
                self.cnns[key] = conv_encoder(spec[0], 16)
                self.add_module("cnn_{}".format(key), self.cnns[key])
                concat_size += 16
            elif kind == "discrete":
                self.one_hot[key] = spec
                concat_size += spec
            else:
                self.flatten[key] = nn.Linear(spec, 16)
                self.add_module("flatten_{}".format(key), self.flatten[key])
                concat_size += 16

        layers, in_size = [], concat_size
        for size in post_fcnet_hiddens:
            layers += [nn.Linear(in_size, size), nn.ReLU()]
            in_size = size
        self.post_fc_stack = nn.Sequential(*layers)
        self.logits_layer = nn.Linear(in_size, num_outputs)
        self.value_layer = nn.Linear(in_size, 1)

    def forward(self, obs):
        outs = []
        for key, (kind, _) in self.obs_space.items():
            if kind == "image":
                outs.append(self.cnns[key](obs[key]))
            elif kind == "discrete":
                outs.append(nn.functional.one_hot(obs[key], self.one_hot[key]).float())
            else:
                outs.append(torch.relu(self.flatten[key](obs[key])))
        h = self.post_fc_stack(torch.cat(outs, dim=1))
        return self.logits_layer(h), self.value_layer(h).squeeze(-1)
