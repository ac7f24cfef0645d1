import torch
from torch.utils.data import DataLoader

import hparams
from dataset import MelTextDataset, collate_fn
from model import MiniFastSpeech


def masked_l1(pred, target, lengths):
    mask = torch.arange(target.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
    return (pred - target).abs()[mask].mean()


def main():
    torch.manual_seed(0)
    loader = DataLoader(MelTextDataset(), batch_size=hparams.batch_size, shuffle=True,
                        collate_fn=collate_fn, generator=torch.Generator().manual_seed(0))
    model = MiniFastSpeech(hparams.vocab_size, hparams.encoder_dim, hparams.n_mels)
    optimizer = torch.optim.Adam(model.parameters(), lr=hparams.learning_rate)
    for epoch in range(hparams.epochs):
        for i, batch in enumerate(loader):
            mel_pred = model(batch["text"], batch["duration"], batch["mel"].shape[1])
            loss = masked_l1(mel_pred, batch["mel"], batch["mel_len"])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            print(f"epoch {epoch} step {i} mel loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
