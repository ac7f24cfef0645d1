TRAIN = {
    "image_size": 28,
    "channels": 1,
    "batch_size": 16,
    "timesteps": 200,
    "beta_start": 1e-4,
    "beta_end": 0.02,
    "lr": 2e-4,
    "epochs": 1,
    "base_width": 32,
}
