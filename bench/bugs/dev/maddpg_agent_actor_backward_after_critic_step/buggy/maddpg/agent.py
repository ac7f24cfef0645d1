import copy

import torch

from maddpg.networks import Actor, Critic


class MADDPGAgent:
    def __init__(self, agent_id, args):
        self.agent_id = agent_id
        self.args = args
        self.actor_network = Actor(args.obs_dims[agent_id], args.act_dims[agent_id])
        self.critic_network = Critic(args.obs_dims, args.act_dims)
        self.actor_target_network = copy.deepcopy(self.actor_network)
        self.critic_target_network = copy.deepcopy(self.critic_network)
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=args.lr_actor)
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=args.lr_critic)

    def _soft_update_target_network(self):
        for target, source in ((self.actor_target_network, self.actor_network),
                               (self.critic_target_network, self.critic_network)):
            for tp, p in zip(target.parameters(), source.parameters()):
                tp.data.copy_((1 - self.args.tau) * tp.data + self.args.tau * p.data)

    def train(self, transitions, other_agents):
        r = transitions["r_%d" % self.agent_id]
        o, u, o_next = transitions["o"], transitions["u"], transitions["o_next"]

        with torch.no_grad():
            u_next = []
            for idx in range(self.args.n_agents):
                actor = self.actor_target_network if idx == self.agent_id else other_agents[idx].actor_target_network
                u_next.append(actor(o_next[idx]))
            q_next = self.critic_target_network(o_next, u_next)
            target_q = r.unsqueeze(1) + self.args.gamma * q_next

        q_value = self.critic_network(o, u)
        critic_loss = (target_q - q_value).pow(2).mean()

        u = list(u)
        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = -self.critic_network(o, u).mean()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self._soft_update_target_network()
        return critic_loss.item(), actor_loss.item()
