import time

import torch

from modeling import TinyCausalLM


def get_batches(num_batches, batch_size=4, seq_len=12, vocab_size=64):
    for _ in range(num_batches):
        ids = torch.randint(0, vocab_size, (batch_size, seq_len))
        yield {"input_ids": ids, "labels": ids.clone()}


def training_function(config):
    model = TinyCausalLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=config["lr"])
    lr_scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 4))
    for epoch in range(config["num_epochs"]):
        s_epoch = time.time()
        model.train()
        loss_sum = torch.tensor(0.0)
        for step, batch in enumerate(get_batches(config["steps_per_epoch"])):
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            loss_sum += loss.detach()
            if step % 3 == 0:
                print(f"[epoch {epoch} step {step}] loss: {loss.item():.4f}")
        e_epoch = time.time()
        print(f"epoch {epoch} avg loss {(loss_sum / (step + 1)).item():.4f} in {e_epoch - s_epoch:.2f}s")


if __name__ == "__main__":
    training_function({"lr": 5e-4, "num_epochs": 1, "steps_per_epoch": 8})
