import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F


class VisualFrontend(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv3d(1, 8, (3, 5, 5), stride=(1, 2, 2), padding=(1, 2, 2)), nn.ReLU(),
                                  nn.AdaptiveAvgPool3d((None, 1, 1)))
        self.proj = nn.Linear(8, d_model)

    def forward(self, video):
        feats = self.conv(video).flatten(2).transpose(1, 2)
        return self.proj(feats)


class LipReader(nn.Module):
    def __init__(self, vocab_size=28, d_model=32, nhead=4, num_layers=2):
        super().__init__()
        self.frontend = VisualFrontend(d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward=64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.ctc_output = nn.Linear(d_model, vocab_size)

    def forward(self, video):
        return self.ctc_output(self.encoder(self.frontend(video))).log_softmax(-1)


def compute_loss(model, batch):
    video, targets, target_lengths = batch
    log_probs = model(video)
    input_lengths = torch.full((video.size(0),), log_probs.size(1), dtype=torch.long)
    return F.ctc_loss(log_probs.transpose(0, 1), targets, input_lengths, target_lengths, zero_infinity=True)


def train_one_epoch(params, model, optimizer, scheduler, scaler, batches):
    model.train()
    for batch in batches:
        params.batch_idx_train += 1
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=params.use_fp16):
            loss = compute_loss(model, batch)
        scaler.scale(loss).backward()

        scaler.unscale_(optimizer)

        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)

        scaler.step(optimizer)
        scaler.update()
        scheduler.step()
        optimizer.zero_grad()
        logging.info("batch %d loss %.4f grad norm %.1f", params.batch_idx_train, loss.item(), grad_norm)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--use-fp16", type=bool, default=True)
    parser.add_argument("--base-lr", type=float, default=1e-3)
    params = parser.parse_args([])
    params.batch_idx_train = 0
    torch.manual_seed(0)
    model = LipReader()
    optimizer = torch.optim.AdamW(model.parameters(), lr=params.base_lr)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: min(1.0, (step + 1) / 10))
    scaler = torch.amp.GradScaler("cpu", enabled=params.use_fp16)
    batches = [(torch.rand(2, 1, 12, 16, 16), torch.randint(1, 28, (2, 5)), torch.tensor([5, 4])) for _ in range(3)]
    train_one_epoch(params, model, optimizer, scheduler, scaler, batches)


if __name__ == "__main__":
    main()
