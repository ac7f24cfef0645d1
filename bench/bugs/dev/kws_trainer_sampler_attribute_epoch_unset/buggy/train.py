import torch
from torch.utils.data import TensorDataset

from config import Hparams
from model import KeywordSpotter
from trainer import Trainer


def fake_utterances(hp, n=96):
    g = torch.Generator().manual_seed(hp.seed)
    mels = torch.randn(n, hp.n_mels, hp.frames, generator=g)
    labels = torch.randint(0, hp.n_keywords, (n,), generator=g)
    return TensorDataset(mels, labels)


def main():
    hp = Hparams()
    torch.manual_seed(hp.seed)
    model = KeywordSpotter(hp.n_mels, hp.n_keywords)
    Trainer(model, fake_utterances(hp), hp).run()


if __name__ == "__main__":
    main()
