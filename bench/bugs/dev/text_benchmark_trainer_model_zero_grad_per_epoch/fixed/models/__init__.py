from .lstm import LSTMClassifier
from .cnn import KimCNN

MODELS = {"lstm": LSTMClassifier, "cnn": KimCNN}


def setup(opt):
    try:
        model_cls = MODELS[opt.model]
    except KeyError:
        raise ValueError(f"unknown model {opt.model!r}; choose from {sorted(MODELS)}") from None
    return model_cls(opt)
