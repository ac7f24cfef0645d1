"""SC900: `# noqa` codes that silence nothing (ruff's RUF100). The check itself is the engine's
(`shapecheck.engine.unused_noqa`): it needs every other finding of the file first."""

from shapecheck.engine import Invalid, Rule


class UnusedNoqa(Rule):
    code = "SC900"  # the engine's `findings.UNUSED_NOQA`; spelled out for `registry.known_codes`
    name = "unused-noqa"
    message = "Unused `noqa` directive"
    fixable = "safe"
    severity = "warning"
    default = False
    docs = """
        ## What it does
        Finds `# noqa: SC...` directives that no longer silence anything: the line has no finding of that code
        (`unused`), the rule is not enabled for the file (`non-enabled`), the code is named twice (`duplicated`) or
        no rule has it (`unknown`). Off by default, like ruff's RUF100: enable it with `--extend-select SC900`.

        Only shapecheck's codes are checked. `# noqa` is shared with ruff, flake8 and pylint, so other tools' codes
        (`# noqa: E501`) and a bare `# noqa` are left alone, and so are `SC` codes listed in the `external` setting
        (flake8-spellcheck's SC100 / SC200, say). A directive that names SC900 is left alone too.

        ## Why is this bad?
        A directive that silences nothing hides the next real finding on its line: when the code changes and the
        bug the directive was written for comes back in another form, nothing is reported. A stale directive also
        tells the reader that the line has a problem it no longer has.

        ## Example
        ```python
        import torch

        x = torch.ones(3, 4).reshape(4, 3)  # noqa: SC101
        ```

        ## Use instead
        ```python
        import torch

        x = torch.ones(3, 4).reshape(4, 3)
        ```

        ## Fix
        Safe: the unneeded codes are removed from the directive, and a directive left without codes is removed
        with its reason text (up to the next `#` comment on the line). Other tools' codes stay.
    """
    VALID = [
        """
        import torch
        x = torch.ones(3)  # NOQA
        y = x.sum()  # noqa:E501,W291
        """,
        """
        import torch
        import os  # noqa: F401, E501
        x = torch.ones(3)  # noqa
        """,
        """
        import torch
        x = torch.ones(3)  # noqa: SC101, SC900 kept on purpose
        """,
        """
        import torch
        s = "# noqa: SC101"
        """,
    ]
    INVALID = [
        Invalid("""
            import torch
            x = torch.ones(3, 4).reshape(4, 3)  # noqa: SC101
            """, fixed="""
            import torch
            x = torch.ones(3, 4).reshape(4, 3)
            """),
        Invalid("""
            import torch
            x = torch.ones(3)  # type: ignore  # noqa: SC101, E501 the reason
            """, fixed="""
            import torch
            x = torch.ones(3)  # type: ignore  # noqa: E501 the reason
            """),
        Invalid("""
            import torch
            x = torch.ones(3)  # noqa: SC777 the reason  # keep this
            """, fixed="""
            import torch
            x = torch.ones(3)  # keep this
            """),
        Invalid("""
            import os
            # noqa: SC101
            x = 1
            """, fixed="""
            import os
            x = 1
            """),
    ]
