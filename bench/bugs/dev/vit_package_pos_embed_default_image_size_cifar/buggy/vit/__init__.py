from vit.config import ViTConfig
from vit.model import VisionTransformer

__all__ = ["ViTConfig", "VisionTransformer"]
