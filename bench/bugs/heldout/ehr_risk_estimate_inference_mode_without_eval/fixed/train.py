import torch
import torch.nn.functional as F

from inference import estimate_risk
from model import EventSequenceModel


def main() -> None:
    torch.manual_seed(0)
    model = EventSequenceModel()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    timelines = torch.randint(0, 50, (32, 16))
    model.train()
    for step in range(6):
        batch = timelines[(step % 4) * 8 : (step % 4 + 1) * 8]
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 50), batch[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    test_timelines = torch.randint(0, 50, (8, 16))
    risk = estimate_risk(model, test_timelines)
    print("mean predicted risk:", risk.mean().item())


if __name__ == "__main__":
    main()
