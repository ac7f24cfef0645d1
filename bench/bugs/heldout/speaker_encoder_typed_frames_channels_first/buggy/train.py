import torch
import torch.nn.functional as F
from jaxtyping import Bool, Float
from torch import Tensor
from torch.utils.data import DataLoader

from data import collate, utterances
from model import FrameEncoder, SpeakerHead


def embed_utterances(
    encoder: FrameEncoder, feats: Float[Tensor, "B T F"], mask: Bool[Tensor, "B T"]
) -> Float[Tensor, "B D"]:
    return encoder(feats, mask)


def main() -> None:
    torch.manual_seed(0)
    encoder, head = FrameEncoder(), SpeakerHead()
    params = list(encoder.parameters()) + list(head.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-3)
    loader = DataLoader(utterances(), batch_size=4, shuffle=True, collate_fn=collate)
    for epoch in range(2):
        for feats, mask, labels in loader:
            emb = embed_utterances(encoder, feats, mask)
            loss = F.cross_entropy(head(emb), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
