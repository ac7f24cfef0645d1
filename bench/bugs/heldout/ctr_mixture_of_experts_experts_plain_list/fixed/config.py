MODEL_CONFIG = {
    "n_dense": 13,
    "sparse_cardinalities": [50, 30, 20, 10],
    "emb_dim": 8,
    "n_experts": 4,
    "expert_hidden": [64, 32],
    "n_tasks": 2,
}

TRAIN_CONFIG = {"batch_size": 64, "epochs": 2, "lr": 1e-3, "n_samples": 512}
