import torch
import torch.nn.functional as F

from models import build_model

IMAGE_SIZE = 32

model = build_model("small")
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
images = torch.rand(8, 3, IMAGE_SIZE, IMAGE_SIZE)
labels = torch.randint(0, 10, (8,))
for step in range(2):
    batch, target = images[step * 4:(step + 1) * 4], labels[step * 4:(step + 1) * 4]
    logits = model(batch)
    loss = F.cross_entropy(logits, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
