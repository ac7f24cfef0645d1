import torch
import torch.nn.functional as F

from captioning.model import CaptioningTransformer

NULL = 0


def grounding_mask(num_regions, num_words, max_span):
    """Which regions each word may look at: the first words see every region, later ones a shrinking window."""
    mask = torch.ones(num_regions, num_words)
    for w in range(num_words):
        keep = max(max_span, num_regions - w)
        mask[keep:, w] = 0
    return mask


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    num_regions, num_words, vocab = 10, 7, 50
    model = CaptioningTransformer(feat_dim=20, vocab_size=vocab)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for t in range(3):
        regions = torch.randn(4, num_regions, 20, generator=g)
        captions = torch.randint(1, vocab, (4, num_words + 1), generator=g)
        grounding = grounding_mask(num_regions, num_words, max_span=4)
        scores = model(regions, captions[:, :-1], grounding)
        loss = F.cross_entropy(scores.reshape(-1, vocab), captions[:, 1:].reshape(-1), ignore_index=NULL)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"(Iteration {t + 1}) loss: {loss.item():.4f}")


if __name__ == "__main__":
    main()
