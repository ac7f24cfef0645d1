import argparse

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from batch import create_masks, move_to
from models import TinyTransformer

PAD = 0


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batchsize", type=int, default=8)
    parser.add_argument("--no_cuda", action="store_true")
    return parser.parse_args([])


def train_model(model, loader, opt, device, epochs):
    model.train()
    for epoch in range(epochs):
        total = 0.0
        for batch in loader:
            src, trg = (t.to(device) for t in batch)
            trg_input, ys = trg[:, :-1], trg[:, 1:]
            src_mask, trg_mask = create_masks(src, trg_input, PAD)
            preds = model(src, trg_input, src_mask, trg_mask)
            loss = F.cross_entropy(preds.reshape(-1, preds.size(-1)), ys.reshape(-1), ignore_index=PAD)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total / len(loader):.4f}")


def main():
    opt_args = get_args()
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() and not opt_args.no_cuda else "cpu")
    src = torch.randint(1, 20, (32, 7))
    trg = torch.randint(1, 20, (32, 9))
    loader = DataLoader(TensorDataset(src, trg), batch_size=opt_args.batchsize, shuffle=True)
    model = TinyTransformer(20, 20).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    train_model(model, loader, opt, device, opt_args.epochs)


if __name__ == "__main__":
    main()
