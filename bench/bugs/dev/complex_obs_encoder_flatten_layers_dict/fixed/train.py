import torch
import torch.nn.functional as F

from rl_models.complex_input import ComplexInputNetwork

OBS_SPACE = {
    "camera": ("image", (3, 16, 16)),
    "gear": ("discrete", 4),
    "lidar": ("vector", 12),
}


def sample_obs(n):
    return {
        "camera": torch.rand(n, 3, 16, 16),
        "gear": torch.randint(0, 4, (n,)),
        "lidar": torch.randn(n, 12),
    }


def main():
    torch.manual_seed(0)
    model = ComplexInputNetwork(OBS_SPACE, num_outputs=5)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("trainable tensors:", len(list(model.parameters())))
    for it in range(3):
        obs = sample_obs(16)
        actions = torch.randint(0, 5, (16,))
        returns = torch.randn(16)
        logits, values = model(obs)
        logp = F.log_softmax(logits, dim=-1).gather(1, actions[:, None]).squeeze(1)
        advantages = (returns - values).detach()
        loss = -(logp * advantages).mean() + 0.5 * F.mse_loss(values, returns)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
