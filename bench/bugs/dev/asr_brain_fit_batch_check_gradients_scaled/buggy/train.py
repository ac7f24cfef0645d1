import functools
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

from brainlite import Brain, Stage

HPARAMS = {
    "n_mels": 20,
    "hidden": 32,
    "n_tokens": 12,
    "blank_index": 0,
    "epochs": 2,
    "batch_size": 4,
    "lr": 1e-3,
    "auto_mix_prec": True,
}


class CTCBrain(Brain):
    def compute_forward(self, batch, stage):
        feats, _, _, _ = batch
        encoded, _ = self.modules["encoder"](feats)
        return self.modules["ctc_lin"](encoded).log_softmax(dim=-1)

    def compute_objectives(self, predictions, batch, stage):
        _, feat_lens, tokens, token_lens = batch
        return torch.nn.functional.ctc_loss(
            predictions.float().transpose(0, 1),
            tokens,
            feat_lens,
            token_lens,
            blank=self.hparams["blank_index"],
            zero_infinity=True,
        )


def dummy_corpus(n, hp, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 30, hp["n_mels"], generator=g)
    feat_lens = torch.full((n,), 30, dtype=torch.long)
    tokens = torch.randint(1, hp["n_tokens"], (n, 6), generator=g)
    token_lens = torch.randint(3, 7, (n,), generator=g)
    return TensorDataset(feats, feat_lens, tokens, token_lens)


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(1986)
    hp = HPARAMS
    modules = {
        "encoder": torch.nn.GRU(hp["n_mels"], hp["hidden"], batch_first=True),
        "ctc_lin": torch.nn.Linear(hp["hidden"], hp["n_tokens"]),
    }
    brain = CTCBrain(
        modules,
        opt_class=functools.partial(torch.optim.Adam, lr=hp["lr"]),
        hparams=hp,
        auto_mix_prec=hp["auto_mix_prec"],
    )
    train = DataLoader(dummy_corpus(16, hp, 0), batch_size=hp["batch_size"], shuffle=True)
    valid = DataLoader(dummy_corpus(8, hp, 1), batch_size=hp["batch_size"])
    brain.fit(hp["epochs"], train, valid)


if __name__ == "__main__":
    main()
