import torch


def detach(value):
    """Detach a tensor, or every tensor inside a dict/list/tuple of them."""
    if torch.is_tensor(value):
        return value.detach()
    if isinstance(value, dict):
        return {key: detach(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(detach(item) for item in value)
    return value


def to_list(value):
    return value if isinstance(value, (list, tuple)) else [value]
