import torch
from torch import nn


def blend_shapes(betas, shape_disps):
    """Per-vertex displacement for each body in the batch: (B, V, 3)."""
    return torch.einsum("bl,mkl->bmk", betas, shape_disps)


class BodyModel(nn.Module):
    def __init__(self, num_verts=128, num_betas=10, num_components=300):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.num_betas = num_betas
        self.register_buffer("v_template", torch.randn(num_verts, 3, generator=g))
        self.register_buffer("shapedirs", 0.01 * torch.randn(num_verts, 3, num_components, generator=g))

    def forward(self, betas, transl):
        v_shaped = self.v_template + blend_shapes(betas, self.shapedirs)
        return v_shaped + transl.unsqueeze(1)


class ShapeFitter:
    def __init__(self, body: BodyModel, batch_size=2, steps=20, lr=0.05):
        self.body = body
        self.steps = steps
        self.betas = torch.zeros(batch_size, body.num_betas, requires_grad=True)
        self.transl = torch.zeros(batch_size, 3, requires_grad=True)
        self.optimizer = torch.optim.Adam([self.betas, self.transl], lr=lr)

    def step(self, target_verts):
        self.optimizer.zero_grad()
        verts = self.body(self.betas, self.transl)
        loss = (verts - target_verts).pow(2).sum(-1).mean()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def fit(self, target_verts):
        for i in range(self.steps):
            loss = self.step(target_verts)
        print(f"final vertex error {loss:.5f}")
        return self.betas.detach()


def main():
    torch.manual_seed(0)
    body = BodyModel()
    target = body.v_template.expand(2, -1, -1) + torch.tensor([0.1, 0.0, -0.2])
    ShapeFitter(body).fit(target)


if __name__ == "__main__":
    main()
