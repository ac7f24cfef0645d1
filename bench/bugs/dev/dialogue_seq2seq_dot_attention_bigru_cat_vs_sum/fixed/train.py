import torch
import torch.nn.functional as F

from model import PAD, ResponseGenerator


def toy_dialogues(n: int, src_len: int, tgt_len: int, vocab: int) -> tuple[torch.Tensor, torch.Tensor]:
    src = torch.randint(2, vocab, (n, src_len))
    for i in range(n):
        src[i, torch.randint(src_len // 2, src_len, (1,)).item():] = PAD
    tgt = torch.randint(2, vocab, (n, tgt_len))
    return src, tgt


def main() -> None:
    torch.manual_seed(3)
    model = ResponseGenerator()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    src, tgt = toy_dialogues(16, 12, 8, 200)
    for epoch in range(2):
        for i in range(0, len(src), 8):
            logits = model(src[i:i + 8], tgt[i:i + 8])
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt[i:i + 8].reshape(-1), ignore_index=PAD)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
        print(f"epoch {epoch} nll {loss.item():.3f}")


if __name__ == "__main__":
    main()
