from .backbone import build_backbone
from .patchcore import PatchCore

__all__ = ["build_backbone", "PatchCore"]
