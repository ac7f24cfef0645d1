from .discriminator import Discriminator
from .lenet import LeNetEncoder

__all__ = ["Discriminator", "LeNetEncoder"]
