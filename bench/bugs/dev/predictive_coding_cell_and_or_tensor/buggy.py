import torch
import torch.nn.functional as f
from torch import nn

KERNEL_SIZE = 3
PADDING = KERNEL_SIZE // 2
POOL = 2


class DiscriminativeCell(nn.Module):
    """Bottom-up half of a CortexNet layer: projects the input (or the error of the layer below) and compares it
    with the top-down prediction."""

    def __init__(self, input_size: dict, hidden_size: int, first: bool = False) -> None:
        super().__init__()
        self.first = first
        if not first:
            self.from_bottom = nn.Conv2d(input_size["input"], hidden_size, KERNEL_SIZE, padding=PADDING)
        self.from_state = nn.Conv2d(input_size["state"], hidden_size, KERNEL_SIZE, padding=PADDING)

    def forward(self, bottom_up: torch.Tensor, state: torch.Tensor) -> torch.Tensor:
        input_projection = self.first and bottom_up or f.relu(f.max_pool2d(self.from_bottom(bottom_up), POOL, POOL))
        state_projection = f.relu(self.from_state(state))
        error = f.relu(torch.cat((input_projection - state_projection, state_projection - input_projection), 1))
        return error


class TwoLayerCortex(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.d0 = DiscriminativeCell({"input": 3, "state": 3}, 3, first=True)
        self.d1 = DiscriminativeCell({"input": 6, "state": 8}, 8)

    def forward(self, frame: torch.Tensor, s0: torch.Tensor, s1: torch.Tensor) -> torch.Tensor:
        e0 = self.d0(frame, s0)
        return self.d1(e0, s1)


if __name__ == "__main__":
    model = TwoLayerCortex()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    video = torch.rand(5, 2, 3, 16, 16)
    s0, s1 = torch.zeros(2, 3, 16, 16), torch.zeros(2, 8, 8, 8)
    for t in range(video.size(0)):
        error = model(video[t], s0, s1)
        loss = error.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(t, loss.item())
