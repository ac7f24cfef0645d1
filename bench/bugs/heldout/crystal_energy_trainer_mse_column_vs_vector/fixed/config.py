MODEL = {"n_atoms_features": 12, "hidden": [32, 32], "activation": "silu", "dropout": 0.0}
TRAIN = {"epochs": 2, "batch_size": 8, "lr": 5e-3, "n_structures": 32}
