import torch
import torch.nn.functional as F


class KANLinear(torch.nn.Module):
    """A Kolmogorov-Arnold layer: a base SiLU path plus learned B-spline activations on a fixed grid."""

    def __init__(self, in_features, out_features, grid_size=5, spline_order=3, grid_range=(-1.0, 1.0)):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.spline_order = spline_order
        h = (grid_range[1] - grid_range[0]) / grid_size
        grid = torch.arange(-spline_order, grid_size + spline_order + 1) * h + grid_range[0]
        self.register_buffer("grid", grid.expand(in_features, -1).contiguous())
        self.base_weight = torch.nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.spline_weight = torch.nn.Parameter(
            torch.randn(out_features, in_features, grid_size + spline_order) * 0.1)

    def b_splines(self, x):
        grid = self.grid
        x = x.unsqueeze(-1)
        bases = ((x >= grid[:, :-1]) & (x < grid[:, 1:])).to(x.dtype)
        for k in range(1, self.spline_order + 1):
            bases = ((x - grid[:, :-(k + 1)]) / (grid[:, k:-1] - grid[:, :-(k + 1)]) * bases[:, :, :-1]) + (
                (grid[:, k + 1:] - x) / (grid[:, k + 1:] - grid[:, 1:(-k)]) * bases[:, :, 1:])
        return bases.contiguous()

    def forward(self, x):
        original_shape = x.shape
        x = x.view(-1, self.in_features)
        base_output = F.linear(F.silu(x), self.base_weight)
        spline_output = F.linear(self.b_splines(x).view(x.size(0), -1),
                                 self.spline_weight.view(self.out_features, -1))
        return (base_output + spline_output).view(*original_shape[:-1], self.out_features)
