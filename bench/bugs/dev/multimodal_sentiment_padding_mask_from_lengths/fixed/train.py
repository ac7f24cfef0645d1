import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from config import FusionConfig
from data import collate, utterances
from model import SentimentRegressor


def main() -> None:
    cfg = FusionConfig()
    torch.manual_seed(0)
    items = utterances(24, cfg.text_dim, cfg.audio_dim, cfg.max_len)
    loader = DataLoader(items, batch_size=cfg.batch_size, shuffle=True, collate_fn=collate)
    model = SentimentRegressor(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=5e-4)
    for epoch in range(cfg.epochs):
        for text, audio, audio_lengths, labels in loader:
            pred = model(text, audio, audio_lengths)
            loss = F.l1_loss(pred, labels)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} mae {loss.item():.3f}")


if __name__ == "__main__":
    main()
