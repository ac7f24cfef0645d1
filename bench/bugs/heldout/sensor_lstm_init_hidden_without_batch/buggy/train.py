import torch
import torch.nn.functional as F

from data import sensor_windows
from model import SensorLSTM


def main() -> None:
    torch.manual_seed(0)
    model = SensorLSTM()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(2):
        state = model.init_hidden()
        epoch_loss = 0.0
        for x, y in sensor_windows():
            pred, state = model(x, state)
            state = tuple(s.detach() for s in state)
            loss = F.mse_loss(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        print(f"epoch {epoch}: {epoch_loss:.4f}")


if __name__ == "__main__":
    main()
