CONFIG = {
    "in_channels": 1,
    "num_classes": 3,
    "widths": [8, 16, 32],
    "image_size": 16,
    "batch_size": 2,
    "epochs": 1,
    "lr": 1e-3,
    "n_samples": 6,
}
