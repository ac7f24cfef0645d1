import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

from unet import UNet
from utils.dice_score import dice_loss


def train_model(model, device, epochs=2, batch_size=2, learning_rate=1e-5, amp=False, weight_decay=1e-8,
                momentum=0.999, gradient_clipping=1.0):
    optimizer = optim.RMSprop(model.parameters(), lr=learning_rate, weight_decay=weight_decay,
                              momentum=momentum, foreach=True)
    scheduler = optim.lr_scheduler.ReduceLROnPlateau(optimizer, "max", patience=5)
    grad_scaler = torch.amp.GradScaler(device.type, enabled=amp)
    criterion = nn.CrossEntropyLoss() if model.n_classes > 1 else nn.BCEWithLogitsLoss()
    g = torch.Generator().manual_seed(0)
    global_step = 0

    for epoch in range(1, epochs + 1):
        model.train()
        epoch_loss = 0
        for _ in range(2):
            images = torch.rand(batch_size, model.n_channels, 32, 32, generator=g)
            true_masks = torch.randint(0, model.n_classes, (batch_size, 32, 32), generator=g)
            with torch.autocast(device.type, enabled=amp):
                masks_pred = model(images)
                loss = criterion(masks_pred, true_masks)
                loss += dice_loss(F.softmax(masks_pred, dim=1).float(),
                                  F.one_hot(true_masks, model.n_classes).permute(0, 3, 1, 2).float(),
                                  multiclass=True)

            optimizer.zero_grad(set_to_none=True)
            grad_scaler.scale(loss).backward()
            grad_scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), gradient_clipping)
            grad_scaler.step(optimizer)
            grad_scaler.update()

            global_step += 1
            epoch_loss += loss.item()
        scheduler.step(-epoch_loss)
        logging.info(f"epoch {epoch} loss {epoch_loss:.4f} step {global_step}")


def get_args():
    parser = argparse.ArgumentParser(description="Train the UNet on images and target masks")
    parser.add_argument("--epochs", "-e", type=int, default=2)
    parser.add_argument("--batch-size", "-b", dest="batch_size", type=int, default=2)
    parser.add_argument("--learning-rate", "-l", type=float, default=1e-5, dest="lr")
    parser.add_argument("--amp", action="store_true", default=True, help="Use mixed precision")
    parser.add_argument("--classes", "-c", type=int, default=2)
    return parser.parse_args([])


if __name__ == "__main__":
    args = get_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    torch.manual_seed(0)
    device = torch.device("cpu")
    model = UNet(n_channels=3, n_classes=args.classes)
    train_model(model=model, device=device, epochs=args.epochs, batch_size=args.batch_size,
                learning_rate=args.lr, amp=args.amp)
