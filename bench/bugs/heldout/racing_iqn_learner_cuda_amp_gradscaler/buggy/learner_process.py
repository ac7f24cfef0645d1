import copy

import torch

from trackmania_rl import config
from trackmania_rl.agents import IQN_Network, Trainer


def sample_memories(generator):
    b = config.batch_size
    state = torch.randn(b, config.float_input_dim, generator=generator)
    actions = torch.randint(0, config.n_actions, (b,), generator=generator)
    rewards = torch.randn(b, generator=generator)
    next_state = torch.randn(b, config.float_input_dim, generator=generator)
    done = (torch.rand(b, generator=generator) < 0.1).float()
    return state, actions, rewards, next_state, done


def learner_process_fn():
    torch.manual_seed(0)
    online_network = IQN_Network()
    target_network = copy.deepcopy(online_network)
    optimizer = torch.optim.RAdam(online_network.parameters(), lr=config.learning_rate, eps=1e-4)
    scaler = torch.cuda.amp.GradScaler(enabled=config.use_amp)
    trainer = Trainer(online_network, target_network, optimizer, scaler)
    g = torch.Generator().manual_seed(0)
    for loop in range(2):
        losses = [trainer.train_on_batch(*sample_memories(g)) for _ in range(config.number_memories_trained_per_learner_loop)]
        target_network.load_state_dict(online_network.state_dict())
        print(f"learner loop {loop}: mean loss {sum(losses) / len(losses):.4f}")


if __name__ == "__main__":
    learner_process_fn()
