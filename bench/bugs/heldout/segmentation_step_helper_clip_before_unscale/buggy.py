import torch
from torch import nn


def train_step(model, optimizer, grad_scaler, images, masks, device_type, clip=1.0):
    with torch.autocast(device_type, dtype=torch.bfloat16):
        loss = nn.functional.binary_cross_entropy_with_logits(model(images), masks)
    optimizer.zero_grad(set_to_none=True)
    grad_scaler.scale(loss).backward()
    nn.utils.clip_grad_norm_(model.parameters(), clip)
    grad_scaler.step(optimizer)
    grad_scaler.update()
    return loss.item()


device_type = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1)).to(device_type)
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-4, momentum=0.9, foreach=True)
grad_scaler = torch.amp.GradScaler(device_type)
for _ in range(2):
    images = torch.rand(2, 3, 24, 24, device=device_type)
    masks = (torch.rand(2, 1, 24, 24, device=device_type) > 0.5).float()
    print(train_step(model, optimizer, grad_scaler, images, masks, device_type))
