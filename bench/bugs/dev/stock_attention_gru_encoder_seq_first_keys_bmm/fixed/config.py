import configparser
from pathlib import Path

DEFAULT_PATH = Path(__file__).with_name("config.ini")


def load_config(path=DEFAULT_PATH):
    parser = configparser.ConfigParser()
    if not parser.read(path):
        raise FileNotFoundError(path)
    return {
        "n_days": parser.getint("data", "n_days"),
        "window": parser.getint("data", "window"),
        "features": [f.strip() for f in parser.get("data", "features").split(",")],
        "hidden": parser.getint("model", "hidden"),
        "num_layers": parser.getint("model", "num_layers"),
        "dropout": parser.getfloat("model", "dropout"),
        "batch_size": parser.getint("train", "batch_size"),
        "epochs": parser.getint("train", "epochs"),
        "lr": parser.getfloat("train", "lr"),
    }
