from .model import PHASEN
