from engine.loop import train_one_epoch, evaluate

__all__ = ["train_one_epoch", "evaluate"]
