import torch
import torch.nn.functional as F

from config import MODEL, TRAIN
from model import TextClassifier


def batches(num_samples: int, batch_size: int, seq_len: int, vocab_size: int, num_classes: int):
    tokens = torch.randint(0, vocab_size, (num_samples, seq_len))
    labels = torch.randint(0, num_classes, (num_samples,))
    for i in range(0, num_samples, batch_size):
        yield tokens[i : i + batch_size], labels[i : i + batch_size]


def main() -> None:
    torch.manual_seed(0)
    model = TextClassifier(**MODEL)
    opt = torch.optim.AdamW(model.parameters(), lr=TRAIN["lr"])
    for epoch in range(TRAIN["epochs"]):
        model.train()
        seen, correct = 0, 0
        for tokens, labels in batches(TRAIN["num_samples"], TRAIN["batch_size"], TRAIN["seq_len"],
                                      MODEL["vocab_size"], MODEL["num_classes"]):
            logits = model(tokens)
            loss = F.cross_entropy(logits, labels)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            correct += (logits.argmax(-1) == labels).sum().item()
            seen += labels.numel()
        print(f"epoch {epoch}: train acc {correct / seen:.3f}")


if __name__ == "__main__":
    main()
