import torch

from agent.buffer import compute_gae
from agent.networks import ActorCritic
from agent.ppo_update import PPOUpdate

OBS_DIM, N_ACTIONS, ROLLOUT = 4, 2, 32


def toy_env_step(obs, action, generator):
    next_obs = obs + 0.1 * torch.randn(OBS_DIM, generator=generator) + (action.float() - 0.5) * 0.05
    reward = 1.0 - next_obs.abs().mean()
    done = float(next_obs.abs().max() > 2.0)
    return (torch.zeros(OBS_DIM) if done else next_obs), reward, done


def collect(model, generator):
    obs = torch.zeros(OBS_DIM)
    keys = ("obs", "actions", "log_probs", "values", "rewards", "dones")
    buf = {k: [] for k in keys}
    for _ in range(ROLLOUT):
        action, log_prob, value = model.act(obs.unsqueeze(0))
        next_obs, reward, done = toy_env_step(obs, action[0], generator)
        for k, v in zip(keys, (obs, action[0], log_prob[0], value[0], torch.as_tensor(reward), torch.tensor(done))):
            buf[k].append(v)
        obs = next_obs
    batch = {k: torch.stack(v) for k, v in buf.items()}
    _, _, last_value = model.act(obs.unsqueeze(0))
    batch["advantages"], batch["returns"] = compute_gae(batch["rewards"], batch["values"], batch["dones"], last_value[0])
    return batch


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = ActorCritic(OBS_DIM, N_ACTIONS)
    updater = PPOUpdate(model)
    for iteration in range(2):
        batch = collect(model, g)
        print(f"iteration {iteration} value loss {updater.update(batch):.4f}")


if __name__ == "__main__":
    main()
