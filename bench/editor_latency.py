"""How long a real editor waits for `shapecheck server`'s diagnostics after an edit: headless Neovim (0.11's
`vim.lsp.config`, or the README's 0.7 recipe before it; the server of this environment), typing into the same
2,000-line file as bench/server_latency.py.

Neovim sends each change at once (`debounce_text_changes = 0`); the time is from the buffer edit (in Lua, with
`vim.loop.hrtime()`) to the arrival of the diagnostics for that change's version in Neovim's own handler. Each edit
waits for its diagnostics before the next, as a user reads them.

    python bench/editor_latency.py [--edits 60] [--lines 2000] [--nvim PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_latency import fixtures_file  # noqa: E402 - the same file as the stdio bench

# How the client starts: `vim.lsp.config` from 0.11 on; before it (Debian 12 ships 0.7) the README's 0.7 recipe's
# `start_client`, attached once the file is open. Either way without debouncing, so the time is the server's.
CLIENT_0_11 = """
vim.lsp.config("shapecheck", {
  cmd = { "shapecheck", "server" }, filetypes = { "python" }, root_markers = { "pyproject.toml" },
  flags = { debounce_text_changes = 0 },
})
vim.lsp.enable("shapecheck")
local function attach(buf) end
"""
CLIENT_0_7 = """
local function attach(buf)
  local client = vim.lsp.start_client({
    name = "shapecheck", cmd = { "shapecheck", "server" }, root_dir = vim.fn.getcwd(),
    flags = { debounce_text_changes = 0 },
  })
  vim.lsp.buf_attach_client(buf, client)
end
"""
HARNESS = """
local arrived = {}  -- version -> hrtime
local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  if result and result.version then arrived[result.version] = vim.loop.hrtime() end
  return publish(err, result, ctx, config)
end
vim.api.nvim_create_autocmd("VimEnter", { nested = true, callback = function()
  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("BENCH_FILE")))
  local buf = vim.api.nvim_get_current_buf()
  attach(buf)
  vim.wait(120000, function() return next(arrived) ~= nil end, 1)
  local row = tonumber(os.getenv("BENCH_ROW"))
  local column = tonumber(os.getenv("BENCH_COLUMN"))
  local latencies = {}
  for n = 1, tonumber(os.getenv("BENCH_EDITS")) do
    local start = vim.loop.hrtime()
    if n % 2 == 1 then
      vim.api.nvim_buf_set_text(buf, row, column, row, column, { "2" })
    else
      vim.api.nvim_buf_set_text(buf, row, column, row, column + 1, { "" })
    end
    local version = vim.lsp.util.buf_versions[buf]
    if vim.wait(60000, function() return arrived[version] ~= nil end, 1) then
      table.insert(latencies, (arrived[version] - start) / 1e6)
    end
  end
  vim.fn.writefile({ vim.fn.json_encode(latencies) }, os.getenv("BENCH_OUT"))
  vim.cmd("qa!")
end })
"""


def neovim_version(nvim: str) -> tuple[int, int] | None:
    printed = subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
    found = re.search(r"NVIM v(\d+)\.(\d+)", printed)
    return (int(found.group(1)), int(found.group(2))) if found else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--nvim", default=shutil.which("nvim"), help="Neovim 0.7 or later")
    args = parser.parse_args()
    if args.nvim is None:  # a machine without Neovim: say so, rather than fail inside subprocess with a traceback
        parser.error("no `nvim` on PATH: install Neovim 0.7 or later, or pass --nvim PATH")
    version = neovim_version(args.nvim)
    if version is None or version < (0, 7):
        parser.error(f"{args.nvim} is not Neovim 0.7 or later")
    text = fixtures_file(args.lines)
    lines = text.splitlines()
    row = next(i for i in range(len(lines) // 2, len(lines)) if "dim=-1" in lines[i])
    column = lines[row].index("dim=-1") + len("dim=-1")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
        (root / "model.py").write_text(text)
        (root / "init.lua").write_text((CLIENT_0_11 if version >= (0, 11) else CLIENT_0_7) + HARNESS)
        out = root / "latencies.json"
        bin_folder = os.path.dirname(sys.executable)
        env = {**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", ""), "HOME": folder,
               "XDG_STATE_HOME": folder, "XDG_CACHE_HOME": folder, "BENCH_FILE": str(root / "model.py"),
               "BENCH_ROW": str(row), "BENCH_COLUMN": str(column), "BENCH_EDITS": str(args.edits),
               "BENCH_OUT": str(out)}
        subprocess.run([args.nvim, "--headless", "-n", "-i", "NONE", "-u", str(root / "init.lua")], cwd=root,
                       env=env, check=True, timeout=1800, stdin=subprocess.DEVNULL)
        ms = sorted(json.loads(out.read_text()))
    print(f"Neovim {version[0]}.{version[1]} ({args.nvim}), {len(lines)} lines, {len(ms)} of {args.edits} edits answered")
    print("wall time from the buffer edit to its diagnostics in Neovim:")
    print(f"  per edit, median                     {statistics.median(ms):7.1f} ms")
    print(f"  per edit, 90th percentile            {ms[int(len(ms) * 0.9) - 1]:7.1f} ms")
    print(f"  per edit, max                        {ms[-1]:7.1f} ms")


if __name__ == "__main__":
    main()
