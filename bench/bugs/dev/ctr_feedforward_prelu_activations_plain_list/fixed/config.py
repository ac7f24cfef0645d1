MODEL = {
    "field_dims": [10, 6, 8, 4],
    "embed_dim": 8,
    "mlp": {"num_layers": 2, "hidden_dims": [32, 16], "activations": "prelu", "dropout": 0.1},
}
TRAIN = {"n": 128, "batch_size": 32, "epochs": 2, "lr": 1e-3, "seed": 11}
