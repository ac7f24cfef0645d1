CONFIG = {
    "alphabet": "ACDEFGHIKLMNPQRSTVWY",
    "seq_len": 40,
    "n_families": 5,
    "channels": [32, 64],
    "kernel": 5,
    "lr": 1e-3,
    "epochs": 3,
    "batch_size": 16,
}
