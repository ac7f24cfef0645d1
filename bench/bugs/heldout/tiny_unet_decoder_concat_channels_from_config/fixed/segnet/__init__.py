from .blocks import conv_block, UpBlock
from .unet import TinyUNet

__all__ = ["conv_block", "UpBlock", "TinyUNet"]
