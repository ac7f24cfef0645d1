import torch
import torch.nn.functional as F

from nanolm import LMConfig, TinyLM


def get_batch(data, config, batch_size):
    ix = torch.randint(len(data) - config.block_size, (batch_size,))
    x = torch.stack([data[i:i + config.block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + config.block_size] for i in ix])
    return x, y


def train(max_iters=2, batch_size=6):
    config = LMConfig()
    model = TinyLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=6e-4, weight_decay=0.1)
    data = torch.randint(0, config.vocab_size, (1000,))
    for it in range(max_iters):
        x, y = get_batch(data, config, batch_size)
        logits = model(x)
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        print(f"iter {it}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
