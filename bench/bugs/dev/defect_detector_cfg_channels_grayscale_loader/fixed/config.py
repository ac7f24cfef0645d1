# backbone description, darknet style: (type, filters, kernel, stride)
BACKBONE = [
    ("conv", 16, 3, 1),
    ("maxpool", None, 2, 2),
    ("conv", 32, 3, 1),
    ("maxpool", None, 2, 2),
    ("conv", 64, 3, 2),
]

NET = {
    "channels": 1,
    "height": 32,
    "width": 32,
    "num_classes": 4,
}

TRAIN = {"batch_size": 4, "lr": 1e-3, "epochs": 1}
