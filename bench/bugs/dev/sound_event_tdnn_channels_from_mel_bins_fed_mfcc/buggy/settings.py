"""Experiment settings (kept in one place so feature extraction and the model agree)."""

FEATURES = {
    "sample_rate": 8000,
    "n_fft": 256,
    "hop_length": 128,
    "n_mels": 48,
    "n_mfcc": 20,
    "method": "mfcc",
}

MODEL = {
    "channels": 64,
    "embedding": 96,
    "num_classes": 5,
}

TRAIN = {
    "batch_size": 8,
    "epochs": 2,
    "lr": 1e-3,
    "clip_seconds": 1.0,
}
