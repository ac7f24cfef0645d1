import torch
import torch.nn as nn


class EmissionNet(nn.Module):
    def __init__(self, obs_dim=4, n_states=3, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_states))

    def forward(self, obs):
        return torch.log_softmax(self.net(obs), dim=-1)


class HMM:
    """Forward-backward algorithm over log emission scores (plain object, not a module)."""

    def __init__(self, n_states=3):
        self.log_pi = torch.log(torch.full((n_states,), 1.0 / n_states))
        trans = torch.full((n_states, n_states), 0.1) + 0.7 * torch.eye(n_states)
        self.log_A = torch.log(trans / trans.sum(1, keepdim=True))

    def forward(self, log_emissions):
        alpha = self.log_pi + log_emissions[:, 0]
        alphas = [alpha]
        for t in range(1, log_emissions.size(1)):
            alpha = torch.logsumexp(alpha.unsqueeze(-1) + self.log_A, dim=1) + log_emissions[:, t]
            alphas.append(alpha)
        return torch.stack(alphas, dim=1)

    def backward(self, log_emissions):
        beta = torch.zeros_like(log_emissions[:, -1])
        betas = [beta]
        for t in range(log_emissions.size(1) - 1, 0, -1):
            beta = torch.logsumexp(self.log_A + (log_emissions[:, t] + beta).unsqueeze(1), dim=2)
            betas.insert(0, beta)
        return torch.stack(betas, dim=1)


def main():
    torch.manual_seed(0)
    emission = EmissionNet()
    hmm = HMM()
    optimizer = torch.optim.Adam(emission.parameters(), lr=1e-2)
    for step in range(3):
        obs = torch.randn(5, 12, 4)
        log_em = emission(obs)
        alphas = hmm.forward(log_em)
        log_likelihood = torch.logsumexp(alphas[:, -1], dim=-1).mean()
        loss = -log_likelihood
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        with torch.no_grad():
            posteriors = (alphas + hmm.backward(log_em)).softmax(-1)
        print(step, round(loss.item(), 4), posteriors[0, 0].tolist())


if __name__ == "__main__":
    main()
