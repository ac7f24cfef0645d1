"""Experiment configuration: nested defaults, overridden from the command line (key=value)."""

import copy

DEFAULTS = {
    "data": {"n_train": 256, "noise": 0.05, "seed": 0},
    "model": {
        "in_features": 1,
        "hidden": 16,
        "depth": 2,
        # Pade approximant of leaky ReLU, P(x) / (1 + |Q(x)|)
        "numerator": [0, 1, 1, 0],
        "denominator": [0, 1],
    },
    "optim": {"lr": 1e-2, "epochs": 5, "batch_size": 32},
}


def _cast(value, like):
    if isinstance(like, bool):
        return value.lower() in ("1", "true", "yes")
    return type(like)(value)


def load_config(overrides=()):
    cfg = copy.deepcopy(DEFAULTS)
    for item in overrides:
        key, value = item.split("=", 1)
        section, name = key.split(".", 1)
        cfg[section][name] = _cast(value, cfg[section][name])
    return cfg
