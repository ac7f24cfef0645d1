"""The README's editor recipes, each run word for word in the editor itself, headless: the editor opens a buggy
file, the recipe starts `shapecheck server`, the diagnostics come at the right lines and a hover shows a shape.
Each test is skipped where its editor is not installed (`nvim`, `emacs` with eglot; set SHAPECHECK_NVIM to try
another Neovim)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import write

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
BUGGY = """import torch
import torch.nn.functional as F


def run(model: torch.nn.Module, x):
    q = torch.randn(4, 16, 32)
    y = F.softmax(x, dim=-1).log()
    return model.forward(q @ q.transpose(1, 2))
"""
FINDINGS = [(6, "SC301"), (7, "SC205")]  # 0-based lines
HOVER = (7, 25)  # `q` in `q @ q.transpose(1, 2)`
TIMEOUT = 180


def recipe(name: str) -> str:
    found = re.search(rf"<!-- recipe: {re.escape(name)} -->\n```\w+\n(.*?)```", README, re.S)
    assert found, f"no recipe {name} in the README"
    return found.group(1)


def _environment(home: Path) -> dict[str, str]:
    """The editor finds this environment's `shapecheck`, and keeps its state in `home`."""
    bin_folder = os.path.dirname(sys.executable)
    return {**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", ""), "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
            "XDG_STATE_HOME": str(home / "state"), "XDG_CACHE_HOME": str(home / "cache")}


def _check(out: Path, completed: subprocess.CompletedProcess) -> None:
    assert out.exists(), f"the editor wrote nothing:\n{completed.stdout}\n{completed.stderr}"
    result = json.loads(out.read_text())
    lines = sorted((d["line"], d["code"]) for d in result["diagnostics"])
    assert lines == FINDINGS, result
    assert "q: (4, 16, 32)" in result["hover"], result


# -------------------------------------------------------------------------------------------------------- Neovim

NEOVIM_HARNESS = f"""
-- After start-up, nested: the FileType event of the file opened here starts the recipe's client.
vim.api.nvim_create_autocmd("VimEnter", {{ nested = true, callback = function()
local file, out = os.getenv("SHAPECHECK_FILE"), os.getenv("SHAPECHECK_OUT")
vim.cmd("filetype on")  -- a user's init has it; `nvim -u FILE --headless` 0.7 does not turn it on
vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
vim.wait({TIMEOUT * 1000}, function() return #vim.diagnostic.get(buf) >= {len(FINDINGS)} end, 50)
local found = {{}}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local lsp = d.user_data and d.user_data.lsp or {{}}
  table.insert(found, {{ line = d.lnum, column = d.col, message = d.message, code = d.code or lsp.code }})
end
local params = {{ textDocument = {{ uri = vim.uri_from_bufnr(buf) }},
                 position = {{ line = {HOVER[0]}, character = {HOVER[1]} }} }}
local hover = ""
for _, reply in pairs(vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 60000) or {{}}) do
  if reply.result and reply.result.contents then hover = reply.result.contents.value or "" end
end
vim.fn.writefile({{ vim.fn.json_encode({{ diagnostics = found, hover = hover }}) }}, out)
vim.cmd("qa!")
end }})
"""


def _neovims() -> list[tuple[str, tuple[int, int]]]:
    found = []
    for candidate in dict.fromkeys([os.environ.get("SHAPECHECK_NVIM"), shutil.which("nvim"), "/usr/bin/nvim"]):
        if candidate and os.path.exists(candidate):
            version = subprocess.run([candidate, "--version"], capture_output=True, text=True).stdout
            match = re.search(r"NVIM v(\d+)\.(\d+)", version)
            if match:
                found.append((candidate, (int(match.group(1)), int(match.group(2)))))
    return found


@pytest.mark.parametrize("name, since", [("neovim-0.7", (0, 7)), ("neovim-0.10", (0, 10)), ("neovim-0.11", (0, 11))])
def test_neovim_recipe(tmp_path: Path, name: str, since: tuple[int, int]) -> None:
    # The 0.7 recipe is for the versions before `vim.lsp.start`; each runs in every Neovim it is for.
    until = (0, 9) if name == "neovim-0.7" else (99, 0)
    neovims = [(path, version) for path, version in _neovims() if since <= version <= until]
    if not neovims:
        pytest.skip(f"no Neovim {since[0]}.{since[1]} or later for the {name} recipe")
    for path, version in neovims:
        init = write(tmp_path / "init.lua", recipe(name) + NEOVIM_HARNESS)
        source = write(tmp_path / "project" / "model.py", BUGGY)
        write(tmp_path / "project" / "pyproject.toml", "[project]\nname = 'demo'\n")
        out = tmp_path / f"nvim-{version[0]}.{version[1]}.json"
        completed = subprocess.run([path, "--headless", "-n", "-i", "NONE", "-u", str(init)], cwd=source.parent,
                                   env={**_environment(tmp_path), "SHAPECHECK_FILE": str(source),
                                        "SHAPECHECK_OUT": str(out)},
                                   capture_output=True, text=True, timeout=TIMEOUT * 2, stdin=subprocess.DEVNULL)
        _check(out, completed)


# --------------------------------------------------------------------------------------------------------- Emacs

EMACS_HARNESS = f"""
(require 'eglot)
(require 'json)
(setq eglot-sync-connect {TIMEOUT})
(find-file (getenv "SHAPECHECK_FILE"))
(unless (eglot-current-server) (eglot-ensure) (run-hooks 'post-command-hook))
(let ((deadline (+ (float-time) {TIMEOUT})))
  (while (and (< (float-time) deadline) (< (length (flymake-diagnostics)) {len(FINDINGS)}))
    (accept-process-output nil 0.1)))
(let* ((found (mapcar (lambda (d)
                        (let ((text (flymake-diagnostic-text d)))
                          (list (cons 'line (1- (line-number-at-pos (flymake-diagnostic-beg d))))
                                (cons 'message text)
                                (cons 'code (and (string-match "\\\\(SC[0-9]+\\\\)" text) (match-string 1 text))))))
                      (flymake-diagnostics)))
       (reply (jsonrpc-request (eglot-current-server) :textDocument/hover
                               (list :textDocument (eglot--TextDocumentIdentifier)
                                     :position (list :line {HOVER[0]} :character {HOVER[1]}))))
       (contents (plist-get reply :contents))
       (hover (if (stringp contents) contents (or (plist-get contents :value) ""))))
  (with-temp-file (getenv "SHAPECHECK_OUT")
    (insert (json-encode (list (cons 'diagnostics (vconcat found)) (cons 'hover hover))))))
(kill-emacs 0)
"""


def _emacs_with_eglot() -> str | None:
    emacs = shutil.which("emacs")
    if emacs is None:
        return None
    probe = subprocess.run([emacs, "--batch", "--eval", "(progn (require 'eglot) (princ \"yes\"))"],
                           capture_output=True, text=True, timeout=120)
    return emacs if probe.stdout.endswith("yes") else None


def test_emacs_eglot_recipe(tmp_path: Path) -> None:
    emacs = _emacs_with_eglot()
    if emacs is None:
        pytest.skip("no Emacs with eglot")
    init = write(tmp_path / "init.el", recipe("emacs-eglot") + EMACS_HARNESS)
    source = write(tmp_path / "project" / "model.py", BUGGY)
    write(tmp_path / "project" / "pyproject.toml", "[project]\nname = 'demo'\n")
    out = tmp_path / "emacs.json"
    completed = subprocess.run([emacs, "--batch", "-l", str(init)], cwd=source.parent,
                               env={**_environment(tmp_path), "SHAPECHECK_FILE": str(source),
                                    "SHAPECHECK_OUT": str(out)},
                               capture_output=True, text=True, timeout=TIMEOUT * 2, stdin=subprocess.DEVNULL)
    _check(out, completed)
