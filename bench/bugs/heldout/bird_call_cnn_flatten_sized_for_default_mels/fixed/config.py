AUDIO = {"sample_rate": 22050, "n_fft": 1024, "hop_length": 512, "n_mels": 64, "clip_seconds": 3.0}
MODEL = {"n_classes": 8, "channels": [16, 32, 64], "dropout": 0.3}
TRAIN = {"batch_size": 8, "epochs": 2, "lr": 1e-3}


def n_frames(audio: dict) -> int:
    return int(audio["sample_rate"] * audio["clip_seconds"]) // audio["hop_length"] + 1
