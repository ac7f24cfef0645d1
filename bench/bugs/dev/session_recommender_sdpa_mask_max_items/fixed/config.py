MODEL = {
    "num_items": 500,
    "hidden": 32,
    "heads": 2,
    "blocks": 2,
    "max_items": 50,
    "dropout": 0.1,
}

TRAIN = {
    "batch_size": 16,
    "session_len": 20,
    "epochs": 2,
    "batches_per_epoch": 3,
    "lr": 5e-4,
}
