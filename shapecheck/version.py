"""shapecheck's version, in a module of its own so that any module can read it without importing the package's
root (which loads the runtime and the IPython extension on demand)."""

__version__ = "0.1.0"
