import torch
import torch.nn as nn


class RHNLanguageModel(nn.Module):
    def __init__(self, vocab=100, dim=32, depth=2, drop=0.3):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.drop_in = nn.Dropout(drop)
        self.cells = nn.ModuleList(nn.Linear(2 * dim if i == 0 else dim, 2 * dim) for i in range(depth))
        self.drop_out = nn.Dropout(drop)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens):
        x = self.drop_in(self.embed(tokens))
        s = torch.zeros(tokens.size(0), x.size(-1))
        outs = []
        for t in range(tokens.size(1)):
            inp = torch.cat([x[:, t], s], -1)
            for cell in self.cells:
                h, gate = cell(inp).chunk(2, -1)
                s = torch.sigmoid(gate) * torch.tanh(h) + (1 - torch.sigmoid(gate)) * s
                inp = s
            outs.append(s)
        return self.out(self.drop_out(torch.stack(outs, 1)))


def evaluate(model, data):
    model.eval()
    with torch.no_grad():
        logits = model(data[:, :-1])
        return nn.functional.cross_entropy(logits.transpose(1, 2), data[:, 1:]).item()


def evaluate_mc(model, data, n_samples=5):
    """MC evaluation: average the predictive distribution of several passes with dropout on."""
    model.eval()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.train()
    with torch.no_grad():
        probs = torch.stack([model(data[:, :-1]).softmax(-1) for _ in range(n_samples)]).mean(0)
    model.train()
    return nn.functional.nll_loss(probs.log().transpose(1, 2), data[:, 1:]).item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RHNLanguageModel()
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    data = torch.randint(0, 100, (8, 12))
    for epoch in range(2):
        model.train()
        loss = nn.functional.cross_entropy(model(data[:, :-1]).transpose(1, 2), data[:, 1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(epoch, evaluate(model, data), evaluate_mc(model, data))
