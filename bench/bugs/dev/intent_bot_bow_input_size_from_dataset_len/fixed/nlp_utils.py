import re

import numpy as np

_STEM_SUFFIXES = ("ing", "ed", "ly", "es", "s")


def tokenize(sentence: str):
    return re.findall(r"[a-z']+", sentence.lower())


def stem(word: str) -> str:
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)]
    return word


def bag_of_words(tokens, vocabulary):
    stems = {stem(t) for t in tokens}
    return np.array([1.0 if w in stems else 0.0 for w in vocabulary], dtype=np.float32)
