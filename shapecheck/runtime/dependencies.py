"""What the run-time checks need that the linter does not: torch, jaxtyping, and beartype for `types=True`.

`pip install torch-shapecheck` installs the linter alone, so `import shapecheck` works without them and a missing
one is met when the runtime is first used. Then the error says what to install, instead of a bare "No module named
'jaxtyping'" from deep inside shapecheck.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

_RUNTIME_EXTRA = 'pip install "torch-shapecheck[runtime]" (jaxtyping and beartype; torch is yours to choose)'
INSTALL_HINTS = {
    "torch": "install the torch build for your machine (CPU, CUDA or MPS: https://pytorch.org/get-started/locally/), "
             f"then {_RUNTIME_EXTRA}",
    "jaxtyping": _RUNTIME_EXTRA,
    "beartype": _RUNTIME_EXTRA,
}


@contextmanager
def required_by(feature: str) -> Iterator[None]:
    """Turn a missing torch, jaxtyping or beartype met inside the block into a ModuleNotFoundError (still an
    ImportError, for code that catches one) that names `feature` and the command to install it. A module missing
    from inside an installed one (a broken install) is left as it is: its own message is the better clue."""
    try:
        yield
    except ModuleNotFoundError as error:
        if error.name not in INSTALL_HINTS:
            raise
        raise ModuleNotFoundError(f"shapecheck: {feature} needs {error.name}, which is not installed: "
                                  f"{INSTALL_HINTS[error.name]}", name=error.name) from None
