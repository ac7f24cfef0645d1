"""The exceptions `@shapecheck.check` raises."""

from __future__ import annotations


class CheckError(TypeError):
    """A checked call broke its annotations. Base of ShapeError and DeviceError.

    A TypeError, like the errors of jaxtyping and beartype, so code that already catches those keeps working.
    """


class ShapeError(CheckError):
    """A tensor's rank, a dimension or its dtype disagrees with its annotation or with another argument."""


class DeviceError(CheckError):
    """The tensors of one call (arguments, return value, module parameters and buffers) are on different
    devices, or not on the device the decorator requires."""


# Tracebacks, pytest and reprs name them as they are imported: `shapecheck.ShapeError`, not the module that
# defines them (pickle finds them there too, through the package's lazy attributes).
for _error in (CheckError, ShapeError, DeviceError):
    _error.__module__ = "shapecheck"
del _error
