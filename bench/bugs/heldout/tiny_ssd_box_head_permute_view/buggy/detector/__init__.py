from detector.backbone import build_backbone
from detector.head import SSDHead

__all__ = ["build_backbone", "SSDHead"]
