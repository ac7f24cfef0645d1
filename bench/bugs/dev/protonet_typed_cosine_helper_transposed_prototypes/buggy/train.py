import torch
import torch.nn.functional as F

from fewshot.encoder import Conv4
from fewshot.metrics import cosine_logits, episode_accuracy

WAY, SHOT, QUERY, EPISODES = 5, 2, 3, 2


def sample_episodes(gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    support = torch.rand(EPISODES, WAY * SHOT, 3, 16, 16, generator=gen)
    query = torch.rand(EPISODES, WAY * QUERY, 3, 16, 16, generator=gen)
    labels = torch.arange(WAY).repeat_interleave(QUERY).expand(EPISODES, -1)
    return support, query, labels


def main() -> None:
    gen = torch.Generator().manual_seed(2)
    torch.manual_seed(2)
    encoder = Conv4()
    opt = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    for step in range(3):
        support, query, labels = sample_episodes(gen)
        s_emb = encoder(support.flatten(0, 1)).view(EPISODES, WAY, SHOT, -1)
        q_emb = encoder(query.flatten(0, 1)).view(EPISODES, WAY * QUERY, -1)
        prototypes = s_emb.mean(dim=2)
        logits = cosine_logits(q_emb, prototypes.transpose(1, 2))
        loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f} acc {episode_accuracy(logits.detach(), labels):.2f}")


if __name__ == "__main__":
    main()
