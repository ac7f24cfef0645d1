from nanolm.model import TinyLM, LMConfig

__all__ = ["TinyLM", "LMConfig"]
