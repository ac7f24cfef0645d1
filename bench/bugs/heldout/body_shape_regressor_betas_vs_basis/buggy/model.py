import torch
import torch.nn as nn

from config import ShapeConfig


def blend_shapes(betas: torch.Tensor, shape_disps: torch.Tensor) -> torch.Tensor:
    """Per-vertex displacements from shape coefficients (B, L) and a basis (V, 3, L)."""
    return torch.einsum("bl,mkl->bmk", betas, shape_disps)


def load_shape_basis(cfg: ShapeConfig) -> tuple[torch.Tensor, torch.Tensor]:
    # stand-in for reading the template mesh and the PCA basis from the model file
    g = torch.Generator().manual_seed(0)
    template = torch.randn(cfg.num_vertices, 3, generator=g)
    shapedirs = torch.randn(cfg.num_vertices, 3, cfg.basis_size, generator=g) * 0.01
    return template, shapedirs


class BodyShapeModel(nn.Module):
    def __init__(self, cfg: ShapeConfig):
        super().__init__()
        template, shapedirs = load_shape_basis(cfg)
        self.register_buffer("v_template", template)
        self.register_buffer("shapedirs", shapedirs)

    def forward(self, betas: torch.Tensor) -> torch.Tensor:
        return self.v_template + blend_shapes(betas, self.shapedirs)


class BetaRegressor(nn.Module):
    def __init__(self, cfg: ShapeConfig):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(cfg.feat_dim, cfg.hidden),
            nn.ReLU(),
            nn.Linear(cfg.hidden, cfg.num_betas),
        )

    def forward(self, feats: torch.Tensor) -> torch.Tensor:
        return self.net(feats)
