from collections.abc import Mapping, Sequence

import torch


def move_to_device(obj, device):
    """Recursively move tensors in dicts / lists / tuples to `device`; other values are returned as is."""
    if torch.is_tensor(obj):
        return obj.to(device, non_blocking=True)
    if isinstance(obj, Mapping):
        return {k: move_to_device(v, device) for k, v in obj.items()}
    if isinstance(obj, Sequence) and not isinstance(obj, str):
        return type(obj)(move_to_device(v, device) for v in obj)
    return obj
