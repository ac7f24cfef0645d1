import torch
import torch.nn.functional as F

from model import Captioner


def train_step(model, opt, images, concept_targets):
    logits = model(images)
    loss = F.binary_cross_entropy_with_logits(logits, concept_targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Captioner()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(2):
        images = torch.rand(4, 3, 32, 32)
        targets = (torch.rand(4, 20) > 0.8).float()
        print(step, train_step(model, opt, images, targets))
