import torch
import torch.nn as nn

PAD_TO = 6


class ChargeModel(nn.Module):
    """Predicts partial charges per atom slot and the electrostatic energy they give."""

    def __init__(self, max_atoms: int = 8, hidden: int = 32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(3, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.charge_head = nn.Linear(hidden, max_atoms)

    def forward(self, positions: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        h = (self.encoder(positions) * mask.unsqueeze(-1)).sum(dim=1)
        charges = self.charge_head(h)
        dist = torch.cdist(positions, positions).clamp(min=0.5)
        coulomb = (mask.unsqueeze(1) & mask.unsqueeze(2)).float() / dist
        potential = torch.einsum("...ik,...k->...i", coulomb, charges)
        return 0.5 * (potential * charges).sum(dim=-1)


def padded_molecules(n: int, pad_to: int = PAD_TO):
    positions = torch.zeros(n, pad_to, 3)
    mask = torch.zeros(n, pad_to, dtype=torch.bool)
    for i in range(n):
        k = int(torch.randint(3, pad_to + 1, (1,)))
        positions[i, :k] = torch.randn(k, 3) * 1.5
        mask[i, :k] = True
    return positions, mask


def main() -> None:
    torch.manual_seed(0)
    positions, mask = padded_molecules(16)
    reference = torch.randn(16)
    model = ChargeModel(max_atoms=PAD_TO)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(3):
        for i in range(0, 16, 4):
            energy = model(positions[i : i + 4], mask[i : i + 4])
            loss = (energy - reference[i : i + 4]).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: {loss.item():.4f}")


if __name__ == "__main__":
    main()
