"""Which language does a surname come from? A character-level CNN over one-hot letters (course homework style)."""
import argparse
import string

import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
parser.add_argument("--model", choices=["cnn", "gru"], default="cnn")
parser.add_argument("--hidden_layer_size", type=int, default=32)
parser.add_argument("--num_layers", type=int, default=3)
parser.add_argument("--input_length", type=int, default=12)
parser.add_argument("--batch_size", type=int, default=8)
parser.add_argument("--learning_rate", type=float, default=0.05)
parser.add_argument("--weight_decay", type=float, default=1e-4)
parser.add_argument("--steps", type=int, default=4)
args = parser.parse_args([])

vocabulary = string.ascii_letters + " .,;'"
all_categories = ["English", "German", "Italian", "Japanese", "Russian"]


def str_to_tensor(names, input_length):
    """(input_length, batch, len(vocabulary)) one-hot, names padded with spaces."""
    out = torch.zeros(input_length, len(names), len(vocabulary))
    for b, name in enumerate(names):
        for i, ch in enumerate(name[:input_length].ljust(input_length)):
            out[i, b, vocabulary.find(ch)] = 1
    return out


class CNNModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.cnn = nn.Conv1d(len(vocabulary), args.hidden_layer_size, 3, padding=1)
        self.cnns = [nn.Conv1d(args.hidden_layer_size, args.hidden_layer_size, 3, padding=1)
                     for _ in range(args.num_layers - 1)]
        self.fc = nn.Linear(args.hidden_layer_size * args.input_length, len(all_categories))

    def forward(self, x):
        out = torch.einsum("lbv->bvl", x)
        out = self.relu(self.cnn(out))
        for cnn in self.cnns:
            out = self.relu(cnn(out))
        out = out.view(out.size(0), args.hidden_layer_size * args.input_length)
        return self.fc(out)


def random_batch(generator):
    idx = torch.randint(0, 200, (args.batch_size,), generator=generator).tolist()
    names = ["".join(string.ascii_lowercase[(i * 7 + k) % 26] for k in range(3 + i % 8)).title() for i in idx]
    labels = torch.tensor([i % len(all_categories) for i in idx])
    return str_to_tensor(names, args.input_length), labels


model = CNNModel()
optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate, momentum=0.9, weight_decay=args.weight_decay)
criterion = nn.CrossEntropyLoss()
g = torch.Generator().manual_seed(0)
torch.manual_seed(0)
for step in range(args.steps):
    line_tensor, category_tensor = random_batch(g)
    output = model(line_tensor)
    loss = criterion(output, category_tensor)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step={step} loss={loss.item():.4f}")
