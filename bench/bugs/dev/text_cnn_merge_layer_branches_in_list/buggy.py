import torch
import torch.nn as nn
import torch.nn.functional as F

hparams = {
    "vocab_size": 100, "emb_dim": 32, "num_classes": 3, "filters": 16, "kernel_sizes": [3, 4, 5],
    "merge_mode": "concat", "dropout": 0.1, "lr": 1e-3, "batch_size": 8, "seq_len": 20, "num_steps": 5,
}


class MergeLayer(nn.Module):
    def __init__(self, layers, mode="concat", dim=1):
        super().__init__()
        self._mode = mode
        self._dim = dim
        self._layers = []
        for layer in layers:
            self._layers.append(layer)

    def forward(self, inputs):
        outputs = [layer(inputs) for layer in self._layers]
        if self._mode == "concat":
            return torch.cat(outputs, dim=self._dim)
        if self._mode == "sum":
            return torch.stack(outputs, dim=0).sum(dim=0)
        raise ValueError(f"unknown merge mode {self._mode}")


def conv_branch(in_channels, filters, kernel_size):
    return nn.Sequential(nn.Conv1d(in_channels, filters, kernel_size), nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten())


class Conv1DClassifier(nn.Module):
    def __init__(self, hparams):
        super().__init__()
        self.embedder = nn.Embedding(hparams["vocab_size"], hparams["emb_dim"])
        branches = [conv_branch(hparams["emb_dim"], hparams["filters"], k) for k in hparams["kernel_sizes"]]
        self.encoder = MergeLayer(branches, mode=hparams["merge_mode"])
        self.dropout = nn.Dropout(hparams["dropout"])
        self.logits = nn.Linear(hparams["filters"] * len(hparams["kernel_sizes"]), hparams["num_classes"])

    def forward(self, tokens):
        h = self.embedder(tokens).transpose(1, 2)
        return self.logits(self.dropout(self.encoder(h)))


def train(model, batches, lr):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    model.train()
    for step, (tokens, labels) in enumerate(batches):
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    batches = [
        (torch.randint(0, hparams["vocab_size"], (hparams["batch_size"], hparams["seq_len"])),
         torch.randint(0, hparams["num_classes"], (hparams["batch_size"],)))
        for _ in range(hparams["num_steps"])
    ]
    model = Conv1DClassifier(hparams)
    print("trainable parameters:", sum(p.numel() for p in model.parameters()))
    train(model, batches, hparams["lr"])
