"""What an argparse namespace (or a `types.SimpleNamespace`) holds: the defaults where no command line is parsed (`parse_args([])`), the keywords
`argparse.Namespace(...)` is built with; one named size per option where the command line (`sys.argv`) sets it, or
where the parser or the namespace may change out of sight."""

from __future__ import annotations

import libcst as cst

from shapecheck.objects.values import FALSE, NONE, TRUE, Const, Namespace
from shapecheck.shapes.evaluator import evaluator
from tests.helpers import lint
from tests.shapes.probe import analyse, probe

HEADER = '''
import argparse
import torch
from torch import nn
parser = argparse.ArgumentParser(description="train")
parser.add_argument("--hidden", type=int, default=128)
parser.add_argument("--image-size", type=int, default="32")
parser.add_argument("--lr", type=float, default=1e-3)
parser.add_argument("-n", "--n-layers", dest="layers", default=2)
parser.add_argument("--cuda", action="store_true")
parser.add_argument("--no-bias", action="store_false")
parser.add_argument("--data", nargs="?")
'''


def seen(body: str) -> list:
    return probe(HEADER + body)


def test_no_command_line_leaves_each_option_its_default() -> None:
    for parse in ("parser.parse_args([])", "parser.parse_args(args=[])", "parser.parse_args('')",
                  "parser.parse_known_args([])[0]"):
        assert seen(f'''
args = {parse}
probe_dim(args.hidden)
probe_dim(args.image_size)
probe_dim(args.layers)
probe(torch.randn(2, args.image_size, args.hidden))
''') == ["128", "32", "2", "(2, 32, 128)"], parse


def test_flags_floats_and_options_with_no_default() -> None:
    _, ctx = analyse(HEADER + "args = parser.parse_args([])\n")
    node = [n for n in ctx.walk(ctx.module) if type(n) is cst.Assign][-1].value
    found = evaluator(ctx).value(node)
    assert isinstance(found, Namespace)
    assert (found.get("cuda"), found.get("no_bias"), found.get("data"), found.get("lr")) == (FALSE, TRUE, NONE,
                                                                                          Const(1e-3))


def test_a_default_is_a_fact_that_a_layer_can_contradict() -> None:
    assert seen('''
args = parser.parse_args([])
probe_conflict(nn.Linear(64, 10)(torch.randn(4, args.hidden)))
''') == ["`nn.Linear(64, 10)(torch.randn(4, args.hidden))`: the input is (4, 128): 128 features (last dim), but "
         "`nn.Linear(64, 10)` = nn.Linear(64, 10) expects 64"]


def test_a_namespace_built_with_keywords() -> None:
    for build in ("argparse.Namespace(hidden=64, layers=2)", "types.SimpleNamespace(hidden=64, layers=2)"):
        assert probe(f'''
import argparse
import types
args = {build}
probe_dim(args.hidden)
probe_dim(args.other)
''') == ["64", "args.other"], build


def test_a_simple_namespace_holds_its_keywords_and_a_dict_stated_in_full() -> None:
    """A notebook's or a script's config: `SimpleNamespace(**config)` is `config`'s entries as attributes; a dict
    with entries the code does not state, or a later change, leaves a field unknown."""
    assert probe('''
import json
from types import SimpleNamespace
import types
config = {"hidden": 64, "layers": 2}
cfg = SimpleNamespace(**config, dropout=0.1)
probe_dim(cfg.hidden)
probe_dim(types.SimpleNamespace(hidden=32).hidden)
loaded = SimpleNamespace(**json.load(open("config.json")))
probe_dim(loaded.hidden)
changed = SimpleNamespace(hidden=64)
changed.hidden = 128
probe_dim(changed.hidden)
''') == ["64", "32", "loaded.hidden", "changed.hidden"]


def test_the_command_line_or_a_change_leaves_each_option_one_named_size() -> None:
    for body in ("args = parser.parse_args()",  # sys.argv
                 "args = parser.parse_args(['--hidden', '64'])",
                 "args = parser.parse_args([])\nargs.hidden = 64",
                 "args = parser.parse_args([])\nsetattr(args, 'hidden', 64)",
                 "args = parser.parse_args([])\nvars(args).update(hidden=64)",
                 "parser.set_defaults(hidden=64)\nargs = parser.parse_args([])",
                 "parser.add_argument('--hidden', type=int, default=64)\nargs = parser.parse_args([])",
                 "if torch.cuda.is_available():\n    parser.add_argument('--x', default=1)\nargs = parser.parse_args([])",
                 "add_model_options(parser)\nargs = parser.parse_args([])",
                 "parser.add_argument('checkpoint')\nargs = parser.parse_args([])",  # the parse fails
                 "parser.add_argument('--ckpt', required=True)\nargs = parser.parse_args([])"):
        assert seen(f'''
{body}
probe_dim(args.hidden)
''') == ["args.hidden"], body


def test_a_helper_that_changes_the_namespace_it_is_given() -> None:
    assert seen('''
def widen(args):
    args.hidden = 2 * args.hidden
    return torch.randn(4, args.hidden)

probe(widen(parser.parse_args([])))
''') == ["(4, 256)"]


HELPERS = '''
import argparse
import torch

def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--feat-dim", type=int, default=64)
    return p.parse_args([])

def get_args_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser("slot classifier", add_help=False)
    parser.add_argument("--img_size", default=40, type=int)
    return parser
'''


def test_a_parser_built_and_parsed_in_a_helper() -> None:
    assert probe(HELPERS + '''
args = parse_args()
probe_dim(args.feat_dim)
probe_dim(get_args_parser().parse_args([]).img_size)
''') == ["64", "40"]


def test_a_helper_whose_parser_may_change_or_reads_the_command_line() -> None:
    changed_out_of_sight = """
    parser.add_argument("--img_size", default=40, type=int)
    add_model_options(parser)
    return parser.parse_args([])"""
    returned_on_two_paths = """
    parser.add_argument("--img_size", default=40, type=int)
    if torch.cuda.is_available():
        return parser
    parser.add_argument("--depth", default=2, type=int)
    return parser"""
    for body, parse in ((changed_out_of_sight, ""), (returned_on_two_paths, ".parse_args([])"),
                        (returned_on_two_paths.replace("return parser", "return parser.parse_args()"), "")):
        assert probe(f"""
import argparse
import torch

def get_args():
    parser = argparse.ArgumentParser(){body}

args = get_args(){parse}
probe_dim(args.img_size)
""") == ["args.img_size"], body


def test_a_call_keeps_the_fields_its_callee_does_not_set() -> None:
    calls = '''
def build(cfg):
    return torch.randn(4, cfg.hidden)

class Net(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.fc = nn.Linear(cfg.hidden, 10)

    def forward(self, x):
        return self.fc(x) if self.cfg.cuda else x

args = parser.parse_args([])
model = Net(args)
probe(build(args))
probe_dim(args.hidden)
probe_dim(args.layers)
'''
    assert seen(calls) == ["(4, 128)", "128", "2"]


def test_a_call_widens_the_fields_its_callee_may_set() -> None:
    callees = {"def setup(cfg):\n    cfg.hidden = 64": ["args.hidden", "2"],
               "def setup(cfg):\n    cfg.hidden += 1\n    del cfg.cuda": ["args.hidden", "2"],
               "def fix(a):\n    a.hidden = 1\ndef setup(cfg):\n    fix(cfg)": ["args.hidden", "2"],
               "def setup(cfg):\n    setattr(cfg, 'layers', 3)": ["args.hidden", "args.layers"],
               "def setup(cfg):\n    vars(cfg).update(layers=3)": ["args.hidden", "args.layers"],
               "def setup(cfg):\n    log_config(cfg)": ["args.hidden", "args.layers"],  # can't be read
               "def setup(cfg):\n    return cfg": ["args.hidden", "args.layers"],  # changed out of sight
               "def setup(cfg):\n    setup(cfg)": ["args.hidden", "args.layers"],
               "class Trainer:\n    def __init__(self, cfg):\n        self.cfg = cfg\n"
               "    def fit(self):\n        self.cfg.hidden = 1\nsetup = Trainer": ["args.hidden", "2"],
               "class Trainer:\n    def __init__(self, cfg):\n        self.cfg = cfg\n"
               "    def fit(self):\n        self.log(self.cfg)\nsetup = Trainer": ["args.hidden", "args.layers"]}
    for callee, expected in callees.items():
        for where in ("", "def main():\n    "):
            body = f'''
{callee}

{where}args = parser.parse_args([])
{where.replace("def main():", "")}setup(args)
{where.replace("def main():", "")}probe_dim(args.hidden)
{where.replace("def main():", "")}probe_dim(args.layers)
'''
            if where:
                body += "main()\n"
            assert seen(body) == expected, (callee, where)


def test_a_namespace_spread_into_a_constructor_keeps_its_defaults() -> None:
    """`Net(**vars(args))` reads the parsed defaults as keywords; a `vars` dict kept in a name is the namespace's
    own (a later `args.hidden = ...` changes it), and a project's own `vars` is not the builtin: both unknown."""
    assert seen('''
class Net(nn.Module):
    def __init__(self, hidden=8, **rest):
        super().__init__()
        self.fc = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.fc(x)

def spread():
    args = parser.parse_args([])
    probe(Net(**vars(args)).fc(torch.randn(3, args.hidden)))
    probe_dim(args.hidden)

def kept():
    args = parser.parse_args([])
    options = vars(args)
    probe_dim(args.hidden)
    probe(Net(**options).fc(torch.randn(3, 4)))

def shadowed(vars):
    args = parser.parse_args([])
    probe(Net(**vars(args)).fc(torch.randn(3, 4)))
''') == ["(3, 2)", "128", "args.hidden", None, None]


def test_a_script_that_hands_its_main_an_empty_command_line() -> None:
    """`main([])` (a script's `__main__` block, a notebook or a test running it) hands `argv` on to
    `parse_args(argv)`: no command line, so each option is its default and a model fed that size is checked; a bare
    `main()` leaves `argv` None, which reads `sys.argv`: the option stays unknown."""
    script = '''
import argparse
import torch
import torch.nn as nn


def parse_args(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--img-size", type=int, default=200)
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    head = nn.Linear(256, 10)
    return head(torch.randn(2, args.img_size))


if __name__ == "__main__":
    main(%s)
'''
    found = lint(script % "[]", "SC105").findings
    assert [(f.location.row, "via `main([])`" in f.message) for f in found] == [(16, True)]
    for silent in ("", "sys.argv[1:]", "['--img-size', '256']"):
        assert lint(script % silent, "SC105").findings == [], silent


def test_an_option_the_command_line_sets_is_a_size_its_default_states_over_one() -> None:
    # The command line may set any value, so each option stays a size of its own; one whose default is a size over
    # 1, read where it is parsed, through a helper's one `return parser.parse_args()` or passed to a model, is one
    # the code states: a (labels,) loss is several. A default of 1 (one environment) may be what runs.
    script = '''
import argparse
import torch
import torch.nn as nn

def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--labels", type=int, default=%s)
    return parser.parse_args()

def log_losses(model, x):
    return model(x).mean(dim=0)

def main():
    args = %s
    losses = torch.zeros(args.labels)
    print(losses.item())
    print(log_losses(nn.Linear(8, args.labels), torch.randn(4, 8)).item())
'''
    inline = '''argparse.ArgumentParser()
    parser.add_argument("--labels", type=int, default=%s)
    args = parser.parse_args()'''
    for parse in ("parse_args()", inline.replace("argparse.", "parser = argparse.", 1)):
        source = script % ("6", parse.replace("%s", "6"))
        assert len(lint(source, "SC107").findings) == 2, parse
        assert lint(script % ("1", parse.replace("%s", "1")), "SC107").findings == [], parse
