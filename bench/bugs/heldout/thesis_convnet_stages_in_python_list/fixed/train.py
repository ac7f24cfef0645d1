import torch
import torch.nn.functional as F

from net import SpectrogramNet


def run(epochs=2, batch=8):
    torch.manual_seed(0)
    model = SpectrogramNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"model has {n_params} trainable parameters")
    specs = torch.randn(32, 1, 32, 32)
    labels = torch.randint(0, 6, (32,))
    for epoch in range(epochs):
        model.train()
        for i in range(0, specs.size(0), batch):
            logits = model(specs[i:i + batch])
            loss = F.cross_entropy(logits, labels[i:i + batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())
    torch.save(model.state_dict(), "spectrogram_net.pt")


if __name__ == "__main__":
    run()
