"""`python -m shapecheck`: the same command as the `shapecheck` script."""

from shapecheck.cli import main

# Guarded: worker processes started by spawn or forkserver import this module under another name.
if __name__ == "__main__":
    main(prog_name="shapecheck")
