import torch
from torch.utils.data import DataLoader

from data import ChnSentiCorp
from model import Model, PretrainedEncoder


def train():
    torch.manual_seed(0)
    loader = DataLoader(ChnSentiCorp("train"), batch_size=16, shuffle=True, drop_last=True)
    model = Model(PretrainedEncoder())
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    criterion = torch.nn.CrossEntropyLoss()
    model.train()
    for i, (input_ids, attention_mask, labels) in enumerate(loader):
        out = model(input_ids=input_ids, attention_mask=attention_mask)
        loss = criterion(out, labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if i % 1 == 0:
            accuracy = (out.argmax(dim=1) == labels).sum().item() / len(labels)
            print(i, loss.item(), accuracy)


if __name__ == "__main__":
    train()
