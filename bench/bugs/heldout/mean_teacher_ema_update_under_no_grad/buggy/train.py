import torch
import torch.nn.functional as F

from ema import update_ema_variables
from model import create_model


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(input_logits.softmax(dim=1), target_logits.softmax(dim=1))


def main() -> None:
    torch.manual_seed(0)
    model, ema_model = create_model(), create_model(ema=True)
    ema_model.load_state_dict(model.state_dict())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(64, 20)
    y = torch.randint(-1, 4, (64,))
    global_step = 0
    for epoch in range(2):
        model.train()
        ema_model.train()
        for i in range(0, 64, 16):
            xb, yb = x[i : i + 16], y[i : i + 16]
            student_logits = model(xb + 0.1 * torch.randn_like(xb))
            teacher_logits = ema_model(xb + 0.1 * torch.randn_like(xb)).detach()
            class_loss = F.cross_entropy(student_logits, yb.clamp(min=0), reduction="none")[yb >= 0].mean()
            consistency_loss = softmax_mse_loss(student_logits, teacher_logits)
            loss = class_loss + 10.0 * consistency_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            global_step += 1
            update_ema_variables(model, ema_model, alpha=0.99, global_step=global_step)
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
