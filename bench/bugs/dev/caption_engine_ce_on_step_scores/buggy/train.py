import torch
from torch import nn

from models import DecoderWithGRU, Encoder

vocab_size = 50
max_len = 12
batch_size = 4


def caption_batches(n):
    for _ in range(n):
        images = torch.rand(batch_size, 3, 32, 32)
        caps = torch.randint(3, vocab_size, (batch_size, max_len))
        caps[:, 0] = 1
        yield images, caps


class CaptionEngine:
    def __init__(self, encoder: Encoder, decoder: DecoderWithGRU, lr=4e-4):
        self.encoder = encoder
        self.decoder = decoder
        self.criterion = nn.CrossEntropyLoss(ignore_index=0)
        params = list(encoder.parameters()) + list(decoder.parameters())
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def train_step(self, imgs, caps):
        self.encoder.train()
        self.decoder.train()
        scores = self.decoder(self.encoder(imgs), caps[:, :-1])
        targets = caps[:, 1:]
        loss = self.criterion(scores, targets)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train(self, epochs=1):
        for epoch in range(epochs):
            losses = [self.train_step(imgs, caps) for imgs, caps in caption_batches(3)]
            print(f"epoch {epoch}: {sum(losses) / len(losses):.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    CaptionEngine(Encoder(), DecoderWithGRU(vocab_size)).train()
