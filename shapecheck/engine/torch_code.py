"""Which files are torch code, told from the text alone before any parse: the linter's prefilter.

A file that imports torch is linted by every rule. A file that does not is torch code too when it is unmistakably a
torch training loop (a helper module that receives `model`, `optimizer`, `loader` as parameters, or one that gets
torch through `from utils import *`) and imports no other array or autograd framework: such a file is linted by the
training-loop rules (SC2xx), since what they look at (`backward`, `step`, `zero_grad`, `eval`, `no_grad`) is
what the file shows; a helper that trains is also linted by the rules that read what the modules importing it hand
it (`triggered_through_imports`: the criterion and the model of `fit(model, loader, criterion, optimizer)`).
"""

from __future__ import annotations

import functools
import re

from shapecheck.engine.context import FOREIGN_FRAMEWORKS

_IMPORTS_TORCH = re.compile(
    r"^[ \t]*(?:from[ \t]+torch\b|import[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*torch\b)", re.MULTILINE
)

# Rules whose code starts so are about the training loop: they also run on torch training code without an import.
TRAINING_LOOP_RULES = "SC2"

# Frameworks with torch's own spelling of a training step (`loss.backward()`, `opt.step()`, `opt.zero_grad()`):
# tinygrad, MXNet, Paddle, Chainer, homework autograd engines, and numpy/JAX/TensorFlow code written from scratch.
_LOOK_ALIKES = frozenset({
    "tinygrad", "chainer", "micrograd", "jittor", "minitorch", "mytorch", "needle", "autograd", "theano", "flax",
    "optax", "haiku", "equinox", "dezero", "nnabla", "megengine", "cntk", "tensorlayer", "trax", "sonnet",
})
_FOREIGN = sorted((FOREIGN_FRAMEWORKS - {"pandas", "sklearn", "cv2", "dask", "xarray", "scipy"}) | _LOOK_ALIKES)


@functools.cache
def _implicit() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """Another framework's import, a star import, a `torch.` name: read only of a file that does not import torch,
    so compiled on first use (the first, of every framework's name, cost every lint some 3 million instructions)."""
    foreign = re.compile(
        r"^[ \t]*(?:from|import)[ \t]+(?:[\w.]+(?:[ \t]+as[ \t]+\w+)?[ \t]*,[ \t]*)*(?:" + "|".join(_FOREIGN) + r")\b",
        re.MULTILINE,
    )
    return foreign, re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+\*", re.MULTILINE), \
        re.compile(r"(?<![\w.])torch\.\w")


_TRAINING_STEP = (".backward(", ".step(", ".zero_grad(")


def imports_torch(text: str) -> bool:
    return "torch" in text and _IMPORTS_TORCH.search(text) is not None


def implicit_torch_training(text: str) -> bool:
    """No `import torch`, yet certainly torch training code: it trains (`.backward(`, `.step(` and `.zero_grad(`)
    or names torch it got from a star import (`torch.no_grad()` after `from utils import *`), and it imports no
    framework that spells a training step the same way (numpy, JAX, TensorFlow, tinygrad, MXNet, ...)."""
    trains = _trains(text)
    imports_foreign, star_import, torch_name = _implicit()
    if not trains and (torch_name.search(text) is None or star_import.search(text) is None):
        return False
    return imports_foreign.search(text) is None


def handed_training(text: str) -> bool:
    """Torch training code without the import that trains (`implicit_torch_training` by its steps): a helper handed
    its model, criterion and optimizer by the modules importing it (`def fit(model, loader, criterion, optimizer)`)."""
    return _trains(text) and implicit_torch_training(text)


def _trains(text: str) -> bool:
    return all(call in text for call in _TRAINING_STEP)
