import torch
import torch.nn as nn

from transformer_net import TransformerNet


def gram_matrix(y):
    b, ch, h, w = y.size()
    features = y.view(b, ch, w * h)
    return features.bmm(features.transpose(1, 2)) / (ch * h * w)


class Features(nn.Module):
    """Stand-in for the frozen VGG feature extractor."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        return self.conv(x / 255.0)


if __name__ == "__main__":
    torch.manual_seed(0)
    transformer, vgg = TransformerNet(), Features()
    optimizer = torch.optim.Adam(transformer.parameters(), 1e-3)
    style_gram = gram_matrix(vgg(torch.rand(1, 3, 32, 32) * 255))
    mse = nn.MSELoss()
    for step in range(2):
        x = torch.rand(2, 3, 32, 32) * 255
        y = transformer(x)
        f_y, f_x = vgg(y), vgg(x)
        loss = 1e5 * mse(f_y, f_x) + 1e10 * mse(gram_matrix(f_y), style_gram.expand(2, -1, -1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())
