import torch

from model import RNN

N_LETTERS, N_CATEGORIES = 30, 5


def batches(n, batch_size, length, generator):
    for _ in range(n):
        cats = torch.nn.functional.one_hot(torch.randint(0, N_CATEGORIES, (batch_size,), generator=generator),
                                           N_CATEGORIES).float()
        letters = torch.randint(0, N_LETTERS, (batch_size, length + 1), generator=generator)
        yield cats, letters[:, :-1], letters[:, 1:]


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = RNN(N_LETTERS, 32, 16, N_CATEGORIES, 2, N_LETTERS).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    g = torch.Generator().manual_seed(0)
    for step, batch in enumerate(batches(3, 4, 7, g)):
        batch = [t.to(device) for t in batch]
        loss = model.training_step(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.3f}")


if __name__ == "__main__":
    main()
