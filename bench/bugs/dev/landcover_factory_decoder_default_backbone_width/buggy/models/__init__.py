from models.factory import build_segmenter

__all__ = ["build_segmenter"]
