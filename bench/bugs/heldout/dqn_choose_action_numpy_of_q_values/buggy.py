import numpy as np
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, n_features, n_actions):
        super().__init__()
        self.fc1 = nn.Linear(n_features, 32)
        self.out = nn.Linear(32, n_actions)

    def forward(self, x):
        return self.out(torch.relu(self.fc1(x)))


class DeepQNetwork:
    def __init__(self, n_actions, n_features, lr=0.01, gamma=0.9, e_greedy=0.9, memory_size=64, batch_size=8):
        self.n_actions, self.n_features = n_actions, n_features
        self.gamma, self.epsilon, self.batch_size = gamma, e_greedy, batch_size
        self.memory = np.zeros((memory_size, n_features * 2 + 2), dtype=np.float32)
        self.memory_counter = 0
        self.eval_net, self.target_net = Net(n_features, n_actions), Net(n_features, n_actions)
        self.optimizer = torch.optim.RMSprop(self.eval_net.parameters(), lr=lr)
        self.cost_his = []

    def store_transition(self, s, a, r, s_):
        self.memory[self.memory_counter % len(self.memory)] = np.hstack((s, [a, r], s_))
        self.memory_counter += 1

    def choose_action(self, observation):
        observation = torch.from_numpy(observation[np.newaxis, :]).float()
        if np.random.uniform() < self.epsilon:
            actions_value = self.eval_net(observation)
            action = int(np.argmax(actions_value.numpy()))
        else:
            action = np.random.randint(0, self.n_actions)
        return action

    def learn(self):
        idx = np.random.choice(min(self.memory_counter, len(self.memory)), size=self.batch_size)
        batch = torch.from_numpy(self.memory[idx])
        s, a = batch[:, : self.n_features], batch[:, self.n_features].long()
        r, s_ = batch[:, self.n_features + 1], batch[:, -self.n_features:]
        q_eval = self.eval_net(s).gather(1, a[:, None]).squeeze(1)
        with torch.no_grad():
            q_target = r + self.gamma * self.target_net(s_).max(1).values
        loss = nn.functional.mse_loss(q_eval, q_target)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.cost_his.append(loss.item())


if __name__ == "__main__":
    np.random.seed(0)
    torch.manual_seed(0)
    dqn = DeepQNetwork(n_actions=4, n_features=2)
    obs = np.random.rand(2).astype(np.float32)
    for step in range(20):
        action = dqn.choose_action(obs)
        obs_ = np.random.rand(2).astype(np.float32)
        dqn.store_transition(obs, action, float(action == 1), obs_)
        if step > 8:
            dqn.learn()
        obs = obs_
    print(np.mean(dqn.cost_his))
