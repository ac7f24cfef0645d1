CONFIG = {
    "model": "convformer",
    "seq_len": 48,
    "pred_len": 12,
    "batch_size": 8,
    "train_epochs": 1,
    "learning_rate": 1e-3,
    "rows": 120,
    "patience": 3,
}
