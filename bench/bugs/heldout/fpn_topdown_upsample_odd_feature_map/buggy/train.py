import torch
import torch.nn.functional as F

from fpn import TinyFPN

HEIGHT, WIDTH = 36, 52


def dice_loss(logits, masks, eps=1.0):
    probs = logits.softmax(1)[:, 1]
    inter = (probs * masks).sum((1, 2))
    return 1 - ((2 * inter + eps) / (probs.sum((1, 2)) + masks.sum((1, 2)) + eps)).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyFPN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        cars = torch.rand(2, 3, HEIGHT, WIDTH)
        masks = (torch.rand(2, HEIGHT, WIDTH) > 0.5).float()
        logits = model(cars)
        loss = F.cross_entropy(logits, masks.long()) + dice_loss(logits, masks)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
