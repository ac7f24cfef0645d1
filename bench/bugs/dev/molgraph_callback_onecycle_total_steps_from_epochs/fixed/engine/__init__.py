from engine.callbacks import CALLBACKS, LRMonitor, SchedulerCallback
from engine.trainer import Trainer

__all__ = ["CALLBACKS", "LRMonitor", "SchedulerCallback", "Trainer"]
