import torch
import torch.nn.functional as F

from ppo.networks import Critic, GaussianActor
from ppo.rollout import Rollout


def actor_loss(actor: GaussianActor, mb: Rollout, clip: float = 0.2, ent_coef: float = 0.0):
    dist = actor(mb.obs)
    log_probs = dist.log_prob(mb.actions).sum(-1)
    ratio = torch.exp(log_probs - mb.log_probs)
    clipped = ratio.clamp(1 - clip, 1 + clip)
    loss = -torch.min(ratio * mb.advantages, clipped * mb.advantages).mean()
    approx_kl = (mb.log_probs - log_probs).mean().item()
    return loss - ent_coef * dist.entropy().sum(-1).mean(), approx_kl


def critic_loss(critic: Critic, mb: Rollout):
    values = critic(mb.obs)
    return F.mse_loss(values, mb.returns.squeeze(-1))
