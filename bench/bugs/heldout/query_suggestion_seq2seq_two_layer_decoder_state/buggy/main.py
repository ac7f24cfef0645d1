import torch

from neuroir.hyparam import MODEL_ARCHITECTURE, TRAINING
from neuroir.seq2seq import Seq2seq


def session_batches(n, batch_size, vocab_size, generator):
    for _ in range(n):
        src = torch.randint(1, vocab_size, (batch_size, 7), generator=generator)
        tgt = torch.randint(1, vocab_size, (batch_size, 6), generator=generator)
        yield src, tgt


def main():
    torch.manual_seed(1013)
    vocab_size = 80
    model = Seq2seq(vocab_size, MODEL_ARCHITECTURE)
    optimizer = torch.optim.Adam(model.parameters(), lr=TRAINING["learning_rate"])
    g = torch.Generator().manual_seed(1013)
    for epoch in range(TRAINING["num_epochs"]):
        model.train()
        for src, tgt in session_batches(3, TRAINING["batch_size"], vocab_size, g):
            loss = model(src, tgt)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), TRAINING["grad_clipping"])
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
