import torch

from layers import TemporalGCN

NUM_NODES, SEQ_IN, HORIZON = 12, 20, 3


def windows(series, seq_in, horizon):
    """series: (time, nodes, features) -> x (n, features, seq_in, nodes), y (n, horizon, nodes)."""
    xs, ys = [], []
    for t in range(series.shape[0] - seq_in - horizon):
        xs.append(series[t:t + seq_in].permute(2, 0, 1))
        ys.append(series[t + seq_in:t + seq_in + horizon, :, 0])
    return torch.stack(xs), torch.stack(ys)


if __name__ == "__main__":
    torch.manual_seed(0)
    x, y = windows(torch.randn(40, NUM_NODES, 2), SEQ_IN, HORIZON)
    model = TemporalGCN(NUM_NODES, horizon=HORIZON)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for i in range(0, 8, 4):
        pred = model(x[i:i + 4])
        loss = torch.nn.functional.l1_loss(pred, y[i:i + 4])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(i, loss.item())
