from dataclasses import dataclass

import torch

from policy import ActorCritic


@dataclass
class PPOArgs:
    vocab_size: int = 40
    dim: int = 32
    rollout_batch_size: int = 16
    step_per_device_batch_size: int = 4
    gradient_accumulation_steps: int = 2
    noptepochs: int = 1
    cliprange: float = 0.2
    cliprange_value: float = 0.2
    vf_coef: float = 0.1
    max_grad_norm: float = 1.0
    learning_rate: float = 1e-4


class PPOTrainer:
    def __init__(self, args, policy):
        self.args = args
        self.policy = policy
        self.optimizer = torch.optim.AdamW(policy.parameters(), lr=args.learning_rate)

    def compute_loss(self, rollouts):
        outputs = self.policy(rollouts["queries"], rollouts["responses"])
        ratio = torch.exp(outputs["logprobs"] - rollouts["logprobs"])
        adv = rollouts["advantages"]
        pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - self.args.cliprange, 1 + self.args.cliprange)).mean()
        vpred = torch.clamp(outputs["values"], rollouts["values"] - self.args.cliprange_value,
                            rollouts["values"] + self.args.cliprange_value)
        vf_loss = 0.5 * (vpred - rollouts["returns"]).pow(2).mean()
        loss = pg_loss + self.args.vf_coef * vf_loss
        return loss, {"loss/policy": pg_loss.item(), "loss/value": vf_loss.item()}

    def step_with_rollouts(self, rollouts):
        stats = []
        mb = self.args.step_per_device_batch_size
        for epoch_idx in range(self.args.noptepochs):
            order = torch.randperm(self.args.rollout_batch_size)
            for batch_idx, start in enumerate(range(0, self.args.rollout_batch_size, mb)):
                idx = order[start:start + mb]
                loss, stats_for_this_step = self.compute_loss({k: v[idx] for k, v in rollouts.items()})
                (loss / self.args.gradient_accumulation_steps).backward()
                if (batch_idx + 1) % self.args.gradient_accumulation_steps == 0:
                    torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.args.max_grad_norm)
                    self.optimizer.step()
                    self.optimizer.zero_grad(set_to_none=True)
                stats.append(stats_for_this_step)
        return {k: sum(s[k] for s in stats) / len(stats) for k in stats[0]}


@torch.no_grad()
def collect_rollouts(policy, args, query_len=5, response_len=6):
    queries = torch.randint(0, args.vocab_size, (args.rollout_batch_size, query_len))
    responses = torch.randint(0, args.vocab_size, (args.rollout_batch_size, response_len))
    out = policy(queries, responses)
    rewards = torch.randn(args.rollout_batch_size, response_len)
    return {"queries": queries, "responses": responses, "logprobs": out["logprobs"], "values": out["values"],
            "advantages": rewards - out["values"], "returns": rewards}


if __name__ == "__main__":
    torch.manual_seed(0)
    args = PPOArgs()
    trainer = PPOTrainer(args, ActorCritic(args.vocab_size, args.dim))
    for step in range(2):
        print(step, trainer.step_with_rollouts(collect_rollouts(trainer.policy, args)))
