import torch
import torch.nn.functional as F

from model import SpanNER


def span_batches(n_batches: int = 3, batch_size: int = 4, seq_len: int = 12, num_labels: int = 5):
    for _ in range(n_batches):
        tokens = torch.randint(1, 300, (batch_size, seq_len))
        labels = torch.zeros(batch_size, seq_len, seq_len, dtype=torch.long)
        labels[:, 2, 4] = torch.randint(1, num_labels, (batch_size,))
        yield tokens, labels


def main() -> None:
    torch.manual_seed(0)
    model = SpanNER()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for tokens, labels in span_batches():
            span_logits = model(tokens)
            loss = F.cross_entropy(span_logits.reshape(-1, span_logits.size(-1)), labels.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
