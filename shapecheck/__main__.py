"""`python -m shapecheck` and the `shapecheck` command."""

import sys

from shapecheck import startup


def main() -> None:
    startup.command_started()
    # A plain `lint PATH...` (what pre-commit, an editor's save and CI run) is read without click, whose import is
    # 3% of a one-file lint; click runs everything else.
    with startup.loading():
        from shapecheck.lint_options import plain_lint

        params = plain_lint(sys.argv[1:])
        if params is not None:
            from shapecheck.lint_command import run_plain
        else:
            from shapecheck.cli import main as command
    if params is not None:
        sys.exit(run_plain(params))
    command(prog_name="shapecheck")


# Guarded: worker processes started by spawn or forkserver import this module under another name.
if __name__ == "__main__":
    main()
