from .ernet import ERNet

__all__ = ["ERNet"]
