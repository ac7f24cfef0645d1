"""Putting fixed source back: in the file's own encoding, atomically, with its mode; or as a unified diff.

The engine works on decoded text without the BOM (`decode` strips it) but with the file's own line endings
(bytes are decoded without newline translation, and libcst keeps them), so encoding the fixed text with the
encoding `tokenize` detects (`utf-8-sig` for a BOM, or the PEP 263 cookie's) gives back the same kind of file.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tokenize


class WriteError(Exception):
    pass


def encode(text: str, original: bytes) -> bytes:
    """`text` in the encoding of the `original` bytes of the same file."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(original).readline)
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as error:
        raise WriteError(f"the fixed text cannot be encoded as {encoding}: {error.reason}") from None


def write_atomically(path: str, data: bytes) -> None:
    """Replace the file `path` names with `data`: readers see the old file or the new one, never a part. A symbolic
    link stays a link (its target is replaced); the file's permission bits and owner are kept. A file with other
    hard links, or whose owner can't be given to a new file, is rewritten in place instead, so the links and the
    owner survive. Nothing is left behind if the write is interrupted (Ctrl-C, a full disk)."""
    import tempfile  # here: a run that writes nothing never loads it

    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    try:
        status = os.stat(target)
        if status.st_nlink > 1:
            return _write_in_place(target, data)
        descriptor, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    except OSError as error:
        raise WriteError(error.strerror or str(error)) from None
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        if hasattr(os, "chown") and (status.st_uid, status.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(temporary, status.st_uid, status.st_gid)
            except PermissionError:
                os.unlink(temporary)
                return _write_in_place(target, data)
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise WriteError(error.strerror or str(error)) from None
        raise


def _write_in_place(target: str, data: bytes) -> None:
    try:
        with open(target, "r+b") as file:
            file.write(data)
            file.truncate()
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        raise WriteError(error.strerror or str(error)) from None


def unified_diff(old: str, new: str, filename: str) -> str:
    """The change as `diff -u` shows it, ruff's `--diff` headers (the file's name on both sides)."""
    import difflib  # here, as tempfile above: a lint that neither writes nor diffs never loads them

    lines = []
    for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=filename, tofile=filename):
        if line.endswith(("\n", "\r")):
            lines.append(line)
        else:  # the file's last line without its newline
            lines.append(line + "\n\\ No newline at end of file\n")
    return "".join(lines)


def _lines(text: str) -> list[str]:
    # Split where Python ends lines (\n, \r\n, \r), not at form feeds as str.splitlines() does.
    return io.StringIO(text, newline="").readlines()
