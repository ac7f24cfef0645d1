class Config(dict):
    """Attribute access over a plain dict of settings (the project reads them from a YAML file)."""

    DEFAULTS = {
        "LR": 1e-4,
        "D2G_LR": 0.1,
        "BETA1": 0.0,
        "BETA2": 0.9,
        "GAN_LOSS": "nsgan",
        "L1_LOSS_WEIGHT": 1.0,
        "INPAINT_ADV_LOSS_WEIGHT": 0.1,
        "BATCH_SIZE": 4,
        "INPUT_SIZE": 32,
        "MAX_ITERS": 4,
        "LOG_INTERVAL": 2,
        "SEED": 10,
    }

    def __init__(self, **overrides):
        super().__init__(self.DEFAULTS)
        self.update(overrides)

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as exc:
            raise AttributeError(name) from exc
