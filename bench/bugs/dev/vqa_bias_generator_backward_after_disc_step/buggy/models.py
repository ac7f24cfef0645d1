import torch
import torch.nn as nn


class BaseVQA(nn.Module):
    def __init__(self, v_dim=16, q_dim=12, hidden=32, n_answers=8):
        super().__init__()
        self.v_proj = nn.Linear(v_dim, hidden)
        self.q_proj = nn.Linear(q_dim, hidden)
        self.classifier = nn.Sequential(nn.ReLU(), nn.Linear(hidden, n_answers))

    def forward(self, v, q):
        joint = self.v_proj(v).mean(dim=1) * self.q_proj(q)
        return self.classifier(joint)


class BiasGenerator(nn.Module):
    """Generates biased answer logits from the question and a noise vector."""

    def __init__(self, q_dim=12, z_dim=4, hidden=32, n_answers=8):
        super().__init__()
        self.z_dim = z_dim
        self.net = nn.Sequential(nn.Linear(q_dim + z_dim, hidden), nn.ReLU(), nn.Linear(hidden, n_answers))

    def forward(self, q):
        z = torch.randn(q.shape[0], self.z_dim)
        return self.net(torch.cat([q, z], dim=-1))


class AnswerDiscriminator(nn.Module):
    def __init__(self, n_answers=8, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_answers, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, answer_logits):
        return self.net(torch.sigmoid(answer_logits))
