"""`python -m shapecheck` and the `shapecheck` command."""

import gc


def main() -> None:
    # Loading the command allocates a few hundred thousand objects that live as long as the process (modules,
    # classes, click's options); the collector would walk them again and again while they load, a tenth of a run
    # answered from the result cache. So it waits, then sets them aside for good (later collections skip them).
    gc.disable()
    try:
        from shapecheck.cli import main as command
    finally:
        gc.freeze()
        gc.enable()
    command(prog_name="shapecheck")


# Guarded: worker processes started by spawn or forkserver import this module under another name.
if __name__ == "__main__":
    main()
