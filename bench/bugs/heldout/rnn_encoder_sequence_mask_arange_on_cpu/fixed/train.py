import torch
import torch.nn.functional as F

from encoders import MeanPoolClassifier

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_batch(batch_size=4, max_len=9):
    lengths = torch.randint(3, max_len + 1, (batch_size,))
    src = torch.randint(1, 120, (batch_size, max_len))
    src[torch.arange(max_len)[None, :] >= lengths[:, None]] = 0
    return src, lengths, torch.randint(0, 3, (batch_size,))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MeanPoolClassifier().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        src, lengths, labels = (t.to(device) for t in make_batch())
        loss = F.cross_entropy(model(src, lengths), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
