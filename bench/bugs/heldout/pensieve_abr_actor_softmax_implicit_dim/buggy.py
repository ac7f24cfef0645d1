"""Pensieve-style adaptive-bitrate agent: an actor-critic over throughput/buffer history, trained with A2C
updates on a synthetic video-streaming environment."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

S_INFO, S_LEN, A_DIM = 6, 8, 6
VIDEO_BIT_RATE = [300, 750, 1200, 1850, 2850, 4300]


class ActorNetwork(nn.Module):
    def __init__(self, state_dim, action_dim, n_conv=16, n_fc=32, n_fc1=64):
        super().__init__()
        self.s_dim = state_dim
        self.a_dim = action_dim
        self.bitrateFc = nn.Linear(1, n_fc)
        self.bufferFc = nn.Linear(1, n_fc)
        self.tConv1d = nn.Conv1d(1, n_conv, 4)
        self.dConv1d = nn.Conv1d(1, n_conv, 4)
        self.cConv1d = nn.Conv1d(1, n_conv, 4)
        self.leftChunkFc = nn.Linear(1, n_fc)
        incoming = 3 * n_fc + 2 * n_conv * (self.s_dim[1] - 4 + 1) + n_conv * (self.a_dim - 4 + 1)
        self.fullyConnected = nn.Linear(incoming, n_fc1)
        self.outputLayer = nn.Linear(n_fc1, self.a_dim)

    def forward(self, inputs):
        bitrateFcOut = F.relu(self.bitrateFc(inputs[:, 0:1, -1]))
        bufferFcOut = F.relu(self.bufferFc(inputs[:, 1:2, -1]))
        tConv1dOut = F.relu(self.tConv1d(inputs[:, 2:3, :])).flatten(1)
        dConv1dOut = F.relu(self.dConv1d(inputs[:, 3:4, :])).flatten(1)
        cConv1dOut = F.relu(self.cConv1d(inputs[:, 4:5, :self.a_dim])).flatten(1)
        leftChunkFcOut = F.relu(self.leftChunkFc(inputs[:, 5:6, -1]))
        merged = torch.cat([bitrateFcOut, bufferFcOut, tConv1dOut, dConv1dOut, cConv1dOut, leftChunkFcOut], 1)
        fcOutput = F.relu(self.fullyConnected(merged))
        out = F.softmax(self.outputLayer(fcOutput))
        return out


class CriticNetwork(nn.Module):
    def __init__(self, state_dim, n_fc=32):
        super().__init__()
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(state_dim[0] * state_dim[1], n_fc), nn.ReLU(), nn.Linear(n_fc, 1))

    def forward(self, inputs):
        return self.fc(inputs)


def env_step(rng, bit_rate):
    throughput = rng.uniform(0.5, 3.0)
    rebuffer = max(0.0, VIDEO_BIT_RATE[bit_rate] / 1000.0 / throughput - 1.0)
    reward = VIDEO_BIT_RATE[bit_rate] / 1000.0 - 4.3 * rebuffer
    return throughput, rebuffer, reward


def main():
    torch.manual_seed(42)
    rng = np.random.default_rng(42)
    actor = ActorNetwork([S_INFO, S_LEN], A_DIM)
    critic = CriticNetwork([S_INFO, S_LEN])
    actor_opt = torch.optim.RMSprop(actor.parameters(), lr=1e-4)
    critic_opt = torch.optim.RMSprop(critic.parameters(), lr=1e-3)
    state = torch.zeros(1, S_INFO, S_LEN)
    for epoch in range(3):
        states, actions, rewards = [], [], []
        for _ in range(6):
            probs = actor(state)
            action = torch.multinomial(probs, 1).item()
            throughput, rebuffer, reward = env_step(rng, action)
            states.append(state)
            actions.append(action)
            rewards.append(reward)
            state = torch.roll(state, -1, dims=-1)
            state[0, :, -1] = torch.tensor([VIDEO_BIT_RATE[action] / 4300, rebuffer, throughput, throughput, 0.5, 0.1])
        batch = torch.cat(states)
        returns = torch.tensor(np.cumsum(rewards[::-1])[::-1].copy(), dtype=torch.float32).unsqueeze(1)
        values = critic(batch)
        advantage = (returns - values).detach()
        log_probs = torch.log(actor(batch).gather(1, torch.tensor(actions).unsqueeze(1)) + 1e-6)
        actor_loss = -(log_probs * advantage).mean()
        critic_loss = F.mse_loss(values, returns)
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        critic_opt.zero_grad()
        critic_loss.backward()
        critic_opt.step()
        print(f"epoch {epoch} reward {sum(rewards):.2f} actor {actor_loss.item():.3f} critic {critic_loss.item():.3f}")


if __name__ == "__main__":
    main()
