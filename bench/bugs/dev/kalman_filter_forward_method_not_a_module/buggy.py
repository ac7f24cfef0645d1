import torch


class KalmanFilter:
    """Constant-velocity filter; forward() predicts, update() corrects, as in the estimator's API."""

    def __init__(self, dt: float = 0.1, q: float = 1e-3, r: float = 0.05) -> None:
        self.F = torch.tensor([[1.0, dt], [0.0, 1.0]])
        self.H = torch.tensor([[1.0, 0.0]])
        self.Q = q * torch.eye(2)
        self.R = torch.tensor([[r]])
        self.x = torch.zeros(2, 1)
        self.P = torch.eye(2)

    def forward(self) -> torch.Tensor:
        self.x = self.F @ self.x
        self.P = self.F @ self.P @ self.F.T + self.Q
        return self.x

    def update(self, z: torch.Tensor) -> torch.Tensor:
        S = self.H @ self.P @ self.H.T + self.R
        K = self.P @ self.H.T @ torch.linalg.inv(S)
        self.x = self.x + K @ (z - self.H @ self.x)
        self.P = (torch.eye(2) - K @ self.H) @ self.P
        return self.x


kf = KalmanFilter()
track = []
for t in range(20):
    measurement = torch.tensor([[0.5 * t * 0.1 + 0.05 * torch.randn(1).item()]])
    kf.forward()
    track.append(kf.update(measurement)[0, 0].item())
print([round(v, 3) for v in track[-3:]])
