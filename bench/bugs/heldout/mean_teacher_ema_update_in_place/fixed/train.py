"""Mean teacher: a student trained on labeled + consistency losses, a teacher that is its EMA."""
import torch
import torch.nn.functional as F

from models import create_model


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.mul_(alpha).add_(param.detach(), alpha=1 - alpha)


def softmax_mse_loss(input_logits, target_logits):
    return F.mse_loss(F.softmax(input_logits, dim=1), F.softmax(target_logits, dim=1))


def main():
    torch.manual_seed(0)
    model = create_model()
    ema_model = create_model(ema=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x = torch.randn(64, 20)
    y = torch.randint(-1, 5, (64,))
    global_step = 0
    for epoch in range(3):
        model.train()
        ema_model.train()
        for i in range(0, 64, 16):
            xb, yb = x[i:i + 16], y[i:i + 16]
            student_in = xb + 0.1 * torch.randn_like(xb)
            teacher_in = xb + 0.1 * torch.randn_like(xb)
            model_out = model(student_in)
            ema_out = ema_model(teacher_in).detach()
            class_loss = F.cross_entropy(model_out, yb, ignore_index=-1)
            consistency_loss = softmax_mse_loss(model_out, ema_out)
            loss = class_loss + 10.0 * consistency_loss
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            global_step += 1
            update_ema_variables(model, ema_model, 0.99, global_step)
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
