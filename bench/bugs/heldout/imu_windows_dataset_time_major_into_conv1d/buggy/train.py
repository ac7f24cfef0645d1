import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import CONFIG
from data import ImuWindows
from model import ActivityCNN


def main() -> None:
    torch.manual_seed(0)
    loader = DataLoader(ImuWindows(window=CONFIG["window"]), batch_size=CONFIG["batch_size"], shuffle=True)
    model = ActivityCNN(CONFIG["channels"], CONFIG["kernel_size"], CONFIG["num_classes"])
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    for epoch in range(CONFIG["epochs"]):
        correct = total = 0
        for x, y in loader:
            logits = model(x)
            loss = F.cross_entropy(logits, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            correct += (logits.argmax(1) == y).sum().item()
            total += len(y)
        print(f"epoch {epoch}: acc {correct / total:.2f}")


if __name__ == "__main__":
    main()
