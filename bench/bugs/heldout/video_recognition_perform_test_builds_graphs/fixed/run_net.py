"""Wrapper to train and test a video classification model."""
from tools.test_net import test

CFG = {
    "RNG_SEED": 0,
    "MODEL": {"NUM_CLASSES": 6, "DROPOUT_RATE": 0.5},
    "TEST": {"ENABLE": True, "BATCH_SIZE": 4, "NUM_VIDEOS": 4, "NUM_ENSEMBLE_VIEWS": 3},
}


def main():
    if CFG["TEST"]["ENABLE"]:
        test(cfg=CFG)


if __name__ == "__main__":
    main()
