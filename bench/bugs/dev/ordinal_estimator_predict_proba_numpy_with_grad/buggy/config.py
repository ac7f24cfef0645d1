EXPERIMENT = {
    "n_features": 12,
    "num_classes": 5,
    "hidden": (64, 32),
    "dropout": 0.2,
    "lr": 1e-3,
    "epochs": 3,
    "batch_size": 32,
    "seed": 0,
}
