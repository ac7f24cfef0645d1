"""`python -m shapecheck` and the `shapecheck` command."""

from shapecheck import startup


def main() -> None:
    startup.command_started()
    with startup.loading():
        from shapecheck.cli import main as command
    command(prog_name="shapecheck")


# Guarded: worker processes started by spawn or forkserver import this module under another name.
if __name__ == "__main__":
    main()
