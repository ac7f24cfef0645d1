"""Which files get linted: walking folders, default and configured excludes, .gitignore, links, odd paths."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from shapecheck.config import Config, Settings
from shapecheck.discovery import Discovery, discover
from shapecheck.gitignore import PatternList, parse
from tests.cli_helpers import BUGGY, lint, reported, write


def found(*paths: str, root: Path | None = None, force_exclude: bool = False, **settings: tuple[str, ...]
          ) -> Discovery:
    config = Config.of(Settings(**settings), root)
    return discover(paths or (".",), lambda folder: config.exclusions, force_exclude)


def touch(root: Path, *names: str) -> None:
    for name in names:
        write(root / name, "x = 1\n")


# ------------------------------------------------------------------------------------------- .gitignore syntax


@pytest.mark.parametrize(("pattern", "path", "is_dir", "matches"), [
    ("build", "build", True, True),
    ("build", "src/build", True, True),  # no slash: any depth
    ("build", "build.py", False, False),
    ("build/", "build", True, True),
    ("build/", "build", False, False),  # trailing slash: folders only
    ("/build", "build", True, True),
    ("/build", "src/build", True, False),  # leading slash: anchored
    ("src/gen", "src/gen", True, True),
    ("src/gen", "a/src/gen", True, False),  # middle slash: anchored
    ("*.py", "a/b/c.py", False, True),
    ("src/*.py", "src/a.py", False, True),
    ("src/*.py", "src/sub/a.py", False, False),  # * stops at a slash
    ("m?.py", "m1.py", False, True),
    ("m?.py", "m12.py", False, False),
    ("m[0-9].py", "m7.py", False, True),
    ("m[0-9].py", "mx.py", False, False),
    ("m[!0-9].py", "mx.py", False, True),
    ("m[!0-9].py", "m7.py", False, False),
    ("m[^0-9].py", "m7.py", False, False),
    ("**/gen", "gen", True, True),
    ("**/gen", "a/b/gen", True, True),
    ("src/**", "src/a/b.py", False, True),
    ("src/**", "src", True, False),
    ("a/**/z.py", "a/z.py", False, True),
    ("a/**/z.py", "a/b/c/z.py", False, True),
    ("a/**/z.py", "b/a/z.py", False, False),
    ("\\#x.py", "#x.py", False, True),
    ("\\!x.py", "!x.py", False, True),
    ("a\\*.py", "a*.py", False, True),
    ("a\\*.py", "ab.py", False, False),
    ("trailing.py   ", "trailing.py", False, True),
    ("[abc", "[abc", False, True),  # an unclosed bracket is literal
])
def test_pattern(pattern: str, path: str, is_dir: bool, matches: bool) -> None:
    parsed = parse(pattern)
    assert parsed is not None
    assert parsed.matches(path, is_dir) is matches


@pytest.mark.parametrize("line", ["", "   ", "# comment", "/", "!"])
def test_blank_and_comment_lines_are_no_patterns(line: str) -> None:
    assert parse(line) is None


def test_last_match_wins_and_negation_reincludes(tmp_path: Path) -> None:
    patterns = PatternList(str(tmp_path), [parse("*.py"), parse("!keep.py")])
    assert patterns.decide(str(tmp_path / "drop.py"), False) is True
    assert patterns.decide(str(tmp_path / "keep.py"), False) is False
    assert patterns.decide(str(tmp_path / "notes.txt"), False) is None


def test_covers_checks_the_folders_above(tmp_path: Path) -> None:
    patterns = PatternList(str(tmp_path), [parse("gen/"), parse("!gen/keep.py")])
    assert patterns.covers(str(tmp_path / "gen" / "keep.py"))  # an excluded folder's files can't come back
    assert not patterns.covers(str(tmp_path / "src" / "keep.py"))


# --------------------------------------------------------------------------------------------------- walking


def test_walk_finds_py_files_only_in_sorted_order(project: Path) -> None:
    touch(project, "b.py", "a.py", "z/y.py", "z/a.py", "stub.pyi", "notes.txt", "script", "c.PY", "m/n/o.py")
    assert found().files == ["a.py", "b.py", "m/n/o.py", "z/a.py", "z/y.py"]
    assert found("z", "a.py").files == ["z/a.py", "z/y.py", "a.py"]


@pytest.mark.parametrize("folder", [".git", ".hg", ".svn", ".venv", "venv", "build", "dist", "__pycache__", ".tox",
                                    "site-packages", "node_modules", ".mypy_cache", ".eggs", "sub/build"])
def test_default_excludes(project: Path, folder: str) -> None:
    touch(project, f"{folder}/m.py", "kept.py")
    assert found().files == ["kept.py"]


def test_a_virtualenv_under_any_name_is_skipped(project: Path) -> None:
    touch(project, "myenv/lib/python3.11/site.py", "kept.py")
    write(project / "myenv" / "pyvenv.cfg", "home = /usr/bin\n")
    assert found().files == ["kept.py"]


def test_a_named_file_is_linted_even_when_excluded(project: Path) -> None:
    touch(project, "build/m.py", "gen/g.py")
    assert found("build/m.py", "gen/g.py", extend_exclude=("gen",)).files == ["build/m.py", "gen/g.py"]
    assert found("build", extend_exclude=("gen",)).files == ["build/m.py"]  # so is a named folder


def test_force_exclude_applies_excludes_to_named_paths(project: Path) -> None:
    touch(project, "build/m.py", "gen/sub/g.py", "src/s.py")
    result = found("build/m.py", "gen/sub/g.py", "gen", "src/s.py", extend_exclude=("gen",), force_exclude=True)
    assert result.files == ["src/s.py"]


def test_force_exclude_on_the_command_line(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.shapecheck]\nextend-exclude = ["fixtures"]\n')
    write(project / "fixtures" / "bug.py", BUGGY)
    assert lint("fixtures/bug.py").exit_code == 1
    assert lint("--force-exclude", "fixtures/bug.py").exit_code == 0


def test_a_folder_named_like_a_python_file_is_walked(project: Path) -> None:
    touch(project, "x.py/inner.py")
    assert found().files == ["x.py/inner.py"]
    assert found("x.py").files == ["x.py/inner.py"]


def test_a_file_reached_twice_is_linted_once(project: Path) -> None:
    touch(project, "src/a.py")
    assert found("src", "src/a.py", "./src/a.py").files == ["src/a.py"]


def test_absolute_paths_stay_absolute(project: Path) -> None:
    touch(project, "src/a.py")
    assert found(str(project / "src")).files == [str(project / "src" / "a.py")]


def test_missing_paths_are_errors_and_the_rest_is_found(project: Path) -> None:
    touch(project, "a.py")
    result = found("missing.py", "a.py", "gone/")
    assert result.files == ["a.py"]
    assert result.errors == [("missing.py", "no such file or directory"), ("gone/", "no such file or directory")]


def test_an_unlistable_folder_is_an_error(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    touch(project, "locked/a.py", "b.py")
    real_scandir = os.scandir

    def scandir(path: str):  # root can list any folder, so simulate the permission error
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "Permission denied")
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    result = found()
    assert result.files == ["b.py"]
    assert result.errors == [("locked", "cannot be listed: Permission denied")]


# ---------------------------------------------------------------------------------------------------- links


def test_links_to_folders_are_not_followed_links_to_files_are(project: Path) -> None:
    touch(project, "real/a.py")
    (project / "loop").symlink_to(project, target_is_directory=True)
    (project / "alias").symlink_to(project / "real", target_is_directory=True)
    (project / "link.py").symlink_to(project / "real" / "a.py")
    (project / "other.py").symlink_to(project / "outside.py")  # broken
    result = found()
    assert result.files == ["link.py"]  # real/a.py is the same file: linted once, under the first name met
    assert result.errors == [("other.py", f"is a broken symbolic link (to {project / 'outside.py'})")]
    assert found("alias").files == ["alias/a.py"]  # a named link to a folder is followed


def test_a_named_broken_link_is_an_error(project: Path) -> None:
    (project / "dangling.py").symlink_to("nowhere.py")
    result = lint("dangling.py")
    assert result.exit_code == 2
    assert "shapecheck: error: dangling.py: is a broken symbolic link (to nowhere.py)" in result.stderr


# ------------------------------------------------------------------------------------------------ .gitignore


def test_gitignore_files(project: Path) -> None:
    (project / ".git").mkdir()
    write(project / ".gitignore", "*.gen.py\n/top_only.py\nout/\n!keep.gen.py\nsecret[0-9].py\n")
    write(project / "sub" / ".gitignore", "local.py\n!top_only.py\n")
    touch(project, "a.py", "b.gen.py", "keep.gen.py", "top_only.py", "sub/top_only.py", "out/o.py", "out.py",
          "secret1.py", "secretx.py", "sub/local.py", "local.py", "sub/deeper/c.gen.py", "sub/s.py")
    assert found().files == ["a.py", "keep.gen.py", "local.py", "out.py", "secretx.py", "sub/s.py",
                             "sub/top_only.py"]


def test_a_nested_gitignore_can_reinclude(project: Path) -> None:
    write(project / ".gitignore", "*.gen.py\n")
    write(project / "sub" / ".gitignore", "!wanted.gen.py\n")
    touch(project, "sub/wanted.gen.py", "sub/other.gen.py", "wanted.gen.py")
    assert found().files == ["sub/wanted.gen.py"]


def test_gitignores_above_a_named_folder_apply_up_to_the_repository_root(project: Path) -> None:
    write(project / ".gitignore", "ignored_in_repo.py\n")  # outside the repository: not read
    repo = project / "repo"
    (repo / ".git" / "info").mkdir(parents=True)
    write(repo / ".git" / "info" / "exclude", "/src/private.py\n")
    write(repo / ".gitignore", "*.gen.py\n")
    write(repo / "src" / ".gitignore", "local.py\n")
    touch(repo, "src/pkg/a.py", "src/pkg/b.gen.py", "src/pkg/local.py", "src/private.py", "src/pkg/ignored_in_repo.py")
    assert found("repo/src/pkg").files == ["repo/src/pkg/a.py", "repo/src/pkg/ignored_in_repo.py"]
    assert found("repo/src").files == ["repo/src/pkg/a.py", "repo/src/pkg/ignored_in_repo.py"]


def test_gitignore_outside_a_repository_applies_within_the_walk_only(project: Path) -> None:
    write(project / ".gitignore", "skip.py\n")
    touch(project, "sub/skip.py", "sub/keep.py")
    assert found().files == ["sub/keep.py"]
    assert found("sub").files == ["sub/keep.py", "sub/skip.py"]  # no repository: the parent's file is not read


def test_a_gitignored_file_named_on_the_command_line_is_linted(project: Path) -> None:
    write(project / ".gitignore", "bug.py\n")
    write(project / "bug.py", BUGGY)
    assert lint().exit_code == 0
    assert reported(lint("--output-format", "concise", "bug.py")) == ["bug.py:2:5: SC301"]
