class AverageMeter:
    """Keeps the latest value and the running average of a quantity."""

    def __init__(self, name: str):
        self.name = name
        self.reset()

    def reset(self) -> None:
        self.val = 0
        self.sum = 0
        self.count = 0
        self.avg = 0

    def update(self, val, n: int = 1) -> None:
        self.val = val
        self.sum += val * n
        self.count += n
        self.avg = self.sum / self.count

    def __str__(self) -> str:
        return f"{self.name} {float(self.avg):.4f}"
