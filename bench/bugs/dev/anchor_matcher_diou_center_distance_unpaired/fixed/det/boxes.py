import torch


def box_area(b: torch.Tensor) -> torch.Tensor:
    return (b[:, 2] - b[:, 0]).clamp(min=0) * (b[:, 3] - b[:, 1]).clamp(min=0)


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """(N, 4) x (M, 4) xyxy boxes -> (N, M) IoU."""
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=2)
    return inter / (box_area(a)[:, None] + box_area(b)[None, :] - inter + 1e-7)


def box_diou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """IoU minus the normalised distance between box centres, (N, M)."""
    iou = box_iou(a, b)
    centers_a = (a[:, :2] + a[:, 2:]) / 2
    centers_b = (b[:, :2] + b[:, 2:]) / 2
    dist = ((centers_a[:, None] - centers_b[None]) ** 2).sum(dim=-1)
    enclose_lt = torch.min(a[:, None, :2], b[None, :, :2])
    enclose_rb = torch.max(a[:, None, 2:], b[None, :, 2:])
    diag = ((enclose_rb - enclose_lt) ** 2).sum(dim=-1)
    return iou - dist / (diag + 1e-7)


def encode(anchors: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    aw, ah = anchors[:, 2] - anchors[:, 0], anchors[:, 3] - anchors[:, 1]
    gw, gh = gt[:, 2] - gt[:, 0], gt[:, 3] - gt[:, 1]
    dx = ((gt[:, 0] + gt[:, 2]) - (anchors[:, 0] + anchors[:, 2])) / 2 / aw
    dy = ((gt[:, 1] + gt[:, 3]) - (anchors[:, 1] + anchors[:, 3])) / 2 / ah
    return torch.stack([dx, dy, torch.log(gw / aw), torch.log(gh / ah)], dim=1)
