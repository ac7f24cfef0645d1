import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor


def contrastive_logits(
    image_emb: Float[Tensor, "batch dim"], text_emb: Float[Tensor, "batch dim"], temperature: float
) -> Float[Tensor, "batch batch"]:
    image_emb = F.normalize(image_emb, dim=-1)
    text_emb = F.normalize(text_emb, dim=-1)
    return image_emb @ text_emb.T / temperature


class CaptionPairs(torch.utils.data.Dataset):
    """Each image comes with several captions, as COCO does."""

    def __init__(self, n=16, captions_per_image=2, seq_len=6, vocab=200):
        g = torch.Generator().manual_seed(0)
        self.images = torch.rand(n, 3, 16, 16, generator=g)
        self.captions = torch.randint(0, vocab, (n, captions_per_image, seq_len), generator=g)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.captions[i]


class DualEncoder(nn.Module):
    def __init__(self, dim=32, vocab=200):
        super().__init__()
        self.image_tower = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Flatten(), nn.LazyLinear(dim))
        self.text_tower = nn.EmbeddingBag(vocab, dim)

    def encode_text(self, tokens):
        return self.text_tower(tokens.flatten(0, -2))

    def forward(self, images, captions):
        return self.image_tower(images), self.encode_text(captions)


def train(model, loader, epochs=2, temperature=0.07):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for images, captions in loader:
            image_emb, text_emb = model(images, captions)
            logits = contrastive_logits(image_emb, text_emb, temperature)
            targets = torch.arange(len(images))
            loss = (F.cross_entropy(logits, targets) + F.cross_entropy(logits.T, targets)) / 2
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = DualEncoder()
    train(model, torch.utils.data.DataLoader(CaptionPairs(), batch_size=4, shuffle=True))
