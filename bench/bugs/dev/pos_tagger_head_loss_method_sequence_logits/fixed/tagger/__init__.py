from tagger.model import BiGRUTagger

__all__ = ["BiGRUTagger"]
