from .conv_forecaster import ConvForecaster
from .linear import NLinear

MODEL_REGISTRY = {
    "convformer": ConvForecaster,
    "nlinear": NLinear,
}


def build_model(name: str, **overrides):
    """Build a registered model with its default hyper-parameters, updated by `overrides`."""
    try:
        cls = MODEL_REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; choose from {sorted(MODEL_REGISTRY)}") from None
    return cls(**overrides)
