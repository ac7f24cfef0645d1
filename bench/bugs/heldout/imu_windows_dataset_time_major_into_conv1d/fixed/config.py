CONFIG = {
    "channels": [6, 16, 32],
    "kernel_size": 5,
    "num_classes": 4,
    "window": 100,
    "batch_size": 8,
    "lr": 1e-3,
    "epochs": 2,
}
