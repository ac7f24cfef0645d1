from ctr.modules.feedforward import FeedForward

__all__ = ["FeedForward"]
