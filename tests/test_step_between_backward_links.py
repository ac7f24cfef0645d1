"""SC209 link of stop 45: a plain `backward(gen_loss, dis_loss, opt_g, opt_d)` helper that steps the
discriminator between the two backward passes, handed its optimizers and the losses a `compute_losses(G, D, real)`
helper returns: the optimizers' modules are read at each call."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

GAN = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    Z = 8


    def make_models():
        G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, 2))
        D = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        return G, D


    def compute_losses(G, D, real):
        fake = G(torch.randn(real.size(0), Z))
        d_real, d_fake = D(real), D(fake.detach())
        d_loss = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real)) + \
            F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
        g_out = D(fake)
        g_loss = F.binary_cross_entropy_with_logits(g_out, torch.ones_like(g_out))
        return g_loss, d_loss


    def backward(gen_loss, dis_loss, opt_g, opt_d):
        opt_d.zero_grad()
        dis_loss.backward()
        opt_d.step()
        opt_g.zero_grad()
        gen_loss.backward()
        opt_g.step()


    if __name__ == "__main__":
        G, D = make_models()
        opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
        opt_d = torch.optim.Adam(D.parameters(), lr=2e-4)
        for step in range(3):
            real = torch.randn(16, 2) * 0.5 + 1.0
            g_loss, d_loss = compute_losses(G, D, real)
            backward(g_loss, d_loss, opt_g, opt_d)
            print(step, g_loss.item(), d_loss.item())
"""


def test_a_helper_handed_its_optimizers_steps_the_discriminator_between_the_passes(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"gan.py": GAN}, "SC209") == [("gan.py", 29)]


def test_the_steps_after_both_passes_are_clean(tmp_path: Path) -> None:
    fixed = GAN.replace("        dis_loss.backward()\n        opt_d.step()\n        opt_g.zero_grad()\n"
                        "        gen_loss.backward()\n",
                        "        dis_loss.backward()\n        opt_g.zero_grad()\n        gen_loss.backward()\n"
                        "        opt_d.step()\n")
    assert fixed != GAN
    assert lint_project(tmp_path, {"gan.py": fixed}, "SC209") == []
