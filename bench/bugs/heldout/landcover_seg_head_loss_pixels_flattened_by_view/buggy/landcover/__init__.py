"""Land-cover segmentation of multispectral tiles."""
