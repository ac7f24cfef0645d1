CONFIG = {
    "n_train": 96,
    "n_features": 20,
    "hidden": [32, 16],
    "dropout": 0.2,
    "batch_size": 32,
    "epochs": 2,
    "lr": 1e-3,
    "pos_weight": 4.0,
    "seed": 3,
}
