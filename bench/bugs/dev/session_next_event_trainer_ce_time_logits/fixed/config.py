CONFIG = {
    "data": {"n_events": 20, "n_sessions": 64, "session_len": 12},
    "model": {"emb_dim": 16, "hidden": 32, "num_layers": 1, "dropout": 0.1},
    "train": {"batch_size": 8, "epochs": 2, "lr": 3e-3, "clip": 1.0, "log_interval": 4},
    "seed": 11,
}
