DEFAULTS = dict(
    n_engines=6,
    n_sensors=5,
    window=20,
    hidden=24,
    num_layers=1,
    batch_size=8,
    lr=2e-3,
    epochs=2,
    seed=4,
)
