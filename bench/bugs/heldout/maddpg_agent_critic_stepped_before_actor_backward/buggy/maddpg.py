import copy

import torch

from networks import Actor, Critic


class MADDPG:
    def __init__(self, args, agent_id):
        self.args = args
        self.agent_id = agent_id
        self.actor_network = Actor(args.obs_dim, args.act_dim)
        self.critic_network = Critic(args.obs_dim * args.n_agents, args.act_dim * args.n_agents)
        self.actor_target_network = copy.deepcopy(self.actor_network)
        self.critic_target_network = copy.deepcopy(self.critic_network)
        self.actor_optim = torch.optim.Adam(self.actor_network.parameters(), lr=args.lr_actor)
        self.critic_optim = torch.optim.Adam(self.critic_network.parameters(), lr=args.lr_critic)
        self.train_step = 0

    def _soft_update_target_network(self):
        tau = self.args.tau
        with torch.no_grad():
            for target, src in ((self.actor_target_network, self.actor_network), (self.critic_target_network, self.critic_network)):
                for tp, p in zip(target.parameters(), src.parameters()):
                    tp.mul_(1 - tau).add_(tau * p)

    def train(self, transitions, other_agents):
        r = transitions["r_%d" % self.agent_id]
        o = [transitions["o_%d" % i] for i in range(self.args.n_agents)]
        u = [transitions["u_%d" % i] for i in range(self.args.n_agents)]
        o_next = [transitions["o_next_%d" % i] for i in range(self.args.n_agents)]

        with torch.no_grad():
            u_next, index = [], 0
            for agent_id in range(self.args.n_agents):
                if agent_id == self.agent_id:
                    u_next.append(self.actor_target_network(o_next[agent_id]))
                else:
                    u_next.append(other_agents[index].policy.actor_target_network(o_next[agent_id]))
                    index += 1
            q_next = self.critic_target_network(torch.cat(o_next, 1), torch.cat(u_next, 1))
            target_q = r.unsqueeze(1) + self.args.gamma * q_next

        q_value = self.critic_network(torch.cat(o, 1), torch.cat(u, 1))
        critic_loss = (target_q - q_value).pow(2).mean()

        u[self.agent_id] = self.actor_network(o[self.agent_id])
        actor_loss = -self.critic_network(torch.cat(o, 1), torch.cat(u, 1)).mean()

        self.critic_optim.zero_grad()
        critic_loss.backward()
        self.critic_optim.step()

        self.actor_optim.zero_grad()
        actor_loss.backward()
        self.actor_optim.step()

        self._soft_update_target_network()
        self.train_step += 1
        return critic_loss.item(), actor_loss.item()
