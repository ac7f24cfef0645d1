import torch
import torch.nn as nn
import torch.nn.functional as F


def euclidean_dist(x, y):
    n, d = x.size()
    m = y.size(0)
    assert d == y.size(1)
    x = x.unsqueeze(1).expand(n, m, d)
    y = y.unsqueeze(0).expand(n, m, d)
    return torch.pow(x - y, 2).sum(2)


def conv_block(in_channels, out_channels):
    return nn.Sequential(nn.Conv2d(in_channels, out_channels, 3, padding=1), nn.BatchNorm2d(out_channels),
                         nn.ReLU(), nn.MaxPool2d(2))


class Protonet(nn.Module):
    def __init__(self, x_dim=1, hid_dim=16, z_dim=16):
        super().__init__()
        self.encoder = nn.Sequential(conv_block(x_dim, hid_dim), conv_block(hid_dim, z_dim), nn.Flatten())

    def loss(self, xs, xq):
        n_class, n_support = xs.size(0), xs.size(1)
        n_query = xq.size(1)
        target_inds = torch.arange(n_class).view(n_class, 1).expand(n_class, n_query).reshape(-1)
        x = torch.cat([xs.reshape(n_class * n_support, *xs.size()[2:]), xq.reshape(n_class * n_query, *xq.size()[2:])])
        z = self.encoder(x)
        z_proto = z[:n_class * n_support].view(n_class, n_support, -1).mean(1)
        zq = z[n_class * n_support:]
        dists = euclidean_dist(zq, z_proto)
        log_p_y = F.log_softmax(-dists, dim=1)
        loss_val = F.nll_loss(log_p_y, target_inds)
        acc_val = (log_p_y.argmax(1) == target_inds).float().mean()
        return loss_val, {"loss": loss_val.item(), "acc": acc_val.item()}


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Protonet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for episode in range(3):
        xs, xq = torch.rand(5, 2, 1, 16, 16), torch.rand(5, 3, 1, 16, 16)
        loss, output = model.loss(xs, xq)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(episode, output)
