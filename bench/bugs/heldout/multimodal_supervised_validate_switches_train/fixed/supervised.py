import torch
import torch.nn as nn


class MMDL(nn.Module):
    """Late-fusion multimodal model: one encoder per modality, a fusion, a head."""

    def __init__(self, encoders, fusion, head):
        super().__init__()
        self.encoders = nn.ModuleList(encoders)
        self.fuse = fusion
        self.head = head

    def forward(self, inputs):
        outs = [encoder(x) for encoder, x in zip(self.encoders, inputs)]
        return self.head(self.fuse(outs))


class Concat(nn.Module):
    def forward(self, modalities):
        return torch.cat([m.flatten(1) for m in modalities], dim=1)


def _processinput(inp):
    return inp.float()


def train(encoders, fusion, head, train_dataloader, valid_dataloader, total_epochs, lr=1e-3):
    model = MMDL(encoders, fusion, head)
    criterion = nn.CrossEntropyLoss()
    op = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    bestacc = 0.0
    for epoch in range(total_epochs):
        model.train()
        totalloss, totals = 0.0, 0
        for j in train_dataloader:
            op.zero_grad()
            out = model([_processinput(i) for i in j[:-1]])
            loss = criterion(out, j[-1])
            totalloss += loss.item() * len(j[-1])
            totals += len(j[-1])
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 8)
            op.step()
        print(f"Epoch {epoch} train loss: {totalloss / totals:.4f}")
        model.eval()
        with torch.no_grad():
            correct, totals = 0, 0
            for j in valid_dataloader:
                out = model([_processinput(i) for i in j[:-1]])
                correct += (out.argmax(-1) == j[-1]).sum().item()
                totals += len(j[-1])
        acc = correct / totals
        bestacc = max(bestacc, acc)
        print(f"Epoch {epoch} valid acc: {acc:.4f}")
    return model, bestacc
