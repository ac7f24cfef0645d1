from layers.convnd import Conv4d

__all__ = ["Conv4d"]
