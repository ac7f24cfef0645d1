import torch

from model import count_parameters, make_model, multitask_loss

CONFIG = {"n_features": 12, "tasks": {"churn": 2, "segment": 4, "plan": 3}, "lr": 1e-3, "epochs": 2}


def batches(n_batches, size=8):
    for _ in range(n_batches):
        x = torch.randn(size, CONFIG["n_features"])
        y = {name: torch.randint(0, k, (size,)) for name, k in CONFIG["tasks"].items()}
        yield x, y


if __name__ == "__main__":
    torch.manual_seed(0)
    model = make_model(CONFIG)
    print("trainable parameters:", count_parameters(model))
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    for epoch in range(CONFIG["epochs"]):
        for x, y in batches(3):
            loss = multitask_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
