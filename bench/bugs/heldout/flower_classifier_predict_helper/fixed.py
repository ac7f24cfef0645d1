import torch
from torch import nn, optim
import torch.nn.functional as F

CLASSES = ["daisy", "dandelion", "rose", "sunflower", "tulip"]


class Classifier(nn.Module):
    def __init__(self, in_features=48, hidden=(32, 16), n_classes=len(CLASSES), drop_p=0.3):
        super().__init__()
        sizes = [in_features, *hidden]
        self.hidden = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.output = nn.Linear(sizes[-1], n_classes)
        self.dropout = nn.Dropout(p=drop_p)

    def forward(self, x):
        for layer in self.hidden:
            x = self.dropout(F.relu(layer(x)))
        return F.log_softmax(self.output(x), dim=1)


def train(model, batches, epochs=2):
    criterion = nn.NLLLoss()
    optimizer = optim.Adam(model.parameters(), lr=0.003)
    model.train()
    for e in range(epochs):
        running_loss = 0
        for features, labels in batches:
            optimizer.zero_grad()
            loss = criterion(model(features), labels)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
        print(f"epoch {e}: training loss {running_loss / len(batches):.3f}")


def predict(features, model, topk=3):
    model.eval()
    with torch.no_grad():
        ps = torch.exp(model(features))
    top_p, top_class = ps.topk(topk, dim=1)
    return top_p, [[CLASSES[i] for i in row] for row in top_class.tolist()]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Classifier()
    batches = [(torch.randn(16, 48), torch.randint(0, len(CLASSES), (16,))) for _ in range(4)]
    train(model, batches)
    probs, names = predict(torch.randn(2, 48), model)
    print(probs, names)
