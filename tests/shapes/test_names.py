"""Facts from names: `B, T, C = x.shape`, `x.size(i)`, `x.shape[-1]`, assignments, unpacked pieces."""

from __future__ import annotations

from tests.shapes.probe import probe, shape


def test_unpacking_the_shape_gives_the_rank_and_names() -> None:
    assert probe('''
        import torch
        def f(x):
            probe(x)
            B, T, C = x.shape
            probe(x)
            probe_dim(B * T)
            probe_dim(x.size(-1))
            probe_dim(x.shape[1])
            probe_dim(x.size(0) * C)
    ''') == ["(...)", "(B, T, C)", "B * T", "C", "T", "B * C"]


def test_size_names_from_the_same_shape_are_those_dims() -> None:
    assert probe('''
        import torch
        def f(x):
            b, c, h, w = x.size()
            n = x.size(2)
            probe_dim(n * w)
            probe_dim(h * w)
            hs = c // 4
            probe_dim(hs)
    ''') == ["h * w", "h * w", "c // 4"]


def test_annotated_dims_through_unpacking() -> None:
    assert shape('''
        import torch
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B T D"]):
            b, t, d = x.shape
            probe(torch.zeros(b, d))
    ''') == "(B, D)"


def test_assignments_are_followed_as_of_the_read() -> None:
    assert probe('''
        import torch
        x = torch.zeros(2, 3)
        probe(x)
        x = x.unsqueeze(0)
        probe(x)
    ''') == ["(2, 3)", "(1, 2, 3)"]


def test_attributes_and_constants_as_sizes() -> None:
    assert probe('''
        import torch
        import torch.nn as nn
        N_EMBD = 64
        class M(nn.Module):
            def __init__(self, n_head):
                super().__init__()
                self.n_head = n_head
                self.scale = 4
            def forward(self, x):
                B, T, C = x.size()
                probe_dim(C // self.n_head)
                probe_dim(self.scale * N_EMBD)
    ''') == ["C // self.n_head", "256"]


def test_unknown_is_the_default() -> None:
    assert probe('''
        import torch
        def f(x, xs, cfg):
            probe(xs[0])
            probe(cfg.tensor)
            probe(x.foo())
            probe(unknown_global)
    ''') == ["(...)", None, None, None]  # a parameter is taken for a tensor of unknown rank, no more


def test_unpacking_the_sizes_of_a_tensor_of_another_rank_raises() -> None:
    assert probe('''
        import torch
        import torch.nn as nn

        class Unpatchify(nn.Module):
            def forward(self, tokens, side: int):
                B, C, H, W = tokens.shape
                return tokens.transpose(1, 2).reshape(B, C, side, side)

        tokens = torch.randn(2, 64, 32)
        probe_conflict(Unpatchify()(tokens, 8))
        probe_conflict(Unpatchify()(torch.randn(2, 32, 8, 8), 8))
    ''') == ["`Unpatchify()(tokens, 8)`: tokens is (2, 64, 32): then in Unpatchify.forward, `B, C, H, W = tokens.shape`: "
             "tokens is (2, 64, 32), 3 sizes for 4 names", None]


def test_an_unpacking_of_x_shape_tells_the_rank_only_where_every_path_runs_it() -> None:
    from shapecheck.engine.linter import lint_text
    from shapecheck.engine.registry import resolve

    branches = '''
import torch

def attention_pool(x: torch.Tensor):
    if x.ndim == 4:
        B, num_heads, L, C = x.shape
    elif x.ndim == 3:
        B, L, C = x.shape
    return x
'''
    assert lint_text(branches, "t.py", resolve(["SC105"])).findings == []
    straight = '''
import torch

def attention_pool(x: torch.Tensor):
    B, num_heads, L, C = x.shape
    B, L, C = x.shape
    return x
'''
    assert [f.location.row for f in lint_text(straight, "t.py", resolve(["SC105"])).findings] == [6]


def test_a_star_import_from_torch_names_what_nothing_else_binds() -> None:
    assert probe('''
        import torch
        from torch.nn import *
        fc = Linear(100, 200)
        probe(fc(torch.randn(3, 100)))
        probe(Sequential(Linear(100, 20), ReLU())(torch.randn(3, 100)))
        probe(len([1, 2]))
    ''') == ["(3, 200)", "(3, 20)", None]


def test_star_imports_from_two_torch_modules_leave_a_name_unknown() -> None:
    assert probe('''
        import torch
        from torch.nn import *
        from torch.optim import *
        probe(Linear(100, 200)(torch.randn(3, 100)))
    ''') == ["(...)"]


def test_a_conditional_size_is_its_branch_when_the_test_is_known() -> None:
    assert probe('''
        import torch
        import torch.nn as nn
        layers = nn.ModuleList([nn.Linear(32 if i else 20, 32) for i in range(2)])
        i = 1
        probe_dim(64 if i else 20)
        def f(flag, n):
            probe_dim(n if flag else n)
            probe_dim(n if flag else 3)
    ''') == ["64", "n", None]


def test_the_words_of_a_string_the_code_writes_out_are_known() -> None:
    assert probe('''
        import torch
        vocab = {w: i for i, w in enumerate("the a cat dog sat on mat".split())}
        sentence = torch.tensor([vocab[w] for w in "the cat sat on the mat".split()])
        probe(sentence)
        probe(torch.tensor([vocab[w] for w in "The,Cat".lower().split(",")]))
        probe(torch.tensor([vocab[w] for w in "the bird".split()]))  # two words, of values not known
    ''') == ["(6,)", "(2,)", "(2, ...)"]


def test_a_string_keyed_item_of_a_dict_the_code_never_explains_is_a_size_of_its_own() -> None:
    # the same key of the same binding is the same size (a yaml config's `cfg["hidden"]`); a dict the code states
    # gives what it holds
    assert probe('''
        import torch
        SIZES = {"hidden": 32}
        def f(cfg, other):
            probe(torch.randn(4, cfg["hidden"]) + torch.randn(1, cfg["hidden"]))
            probe_dim(cfg["hidden"] - other["hidden"])
            probe_dim(SIZES["hidden"])
            local = {"hidden": 8}
            probe_dim(local["hidden"])
            probe_dim(cfg[name])
    ''') == ['(4, cfg["hidden"])', 'cfg["hidden"] - other["hidden"]', "32", "8", None]


def test_an_option_an_ini_config_reads_with_getint_is_a_size_of_its_own() -> None:
    # `config.getint(section, option)` of a configparser, or `config[section].getint(option)`: the same option of
    # the same binding is one size (the LSTM built with it and the tensor expanded to it agree); where the module may change the config
    # (`config.set`), each read is a size equal only to itself
    found = probe('''
        import configparser
        import torch
        import torch.nn as nn
        def f(config, other, path):
            probe(torch.randint(0, 5, (4, config.getint("data", "max_len"))))
            lstm = nn.LSTM(8, config.getint("net", "hidden"), bidirectional=True, batch_first=True)
            out, _ = lstm(torch.randn(4, 7, 8))
            probe(out)
            probe_dim(out.size(2) - 2 * config["net"].getint("hidden"))
            probe_dim(config.getint("net", "hidden") - other.getint("net", "hidden"))
            probe_dim(config.getint(section, "hidden"))
        def g(path):
            parser = configparser.ConfigParser()
            parser.read(path)
            parser.set("net", "hidden", "16")
            probe_dim(parser.getint("net", "hidden") - parser.getint("net", "hidden"))
    ''')
    assert found[:5] == ['(4, config.getint("data", "max_len"))', '(4, 7, 2 * config.getint("net", "hidden"))', "0",
                         'config.getint("net", "hidden") - other.getint("net", "hidden")', None]
    # two sizes of one spelling: which is written first is not fixed
    assert found[5] in ('parser.getint("net", "hidden") - parser.getint("net", "hidden")',
                        '-parser.getint("net", "hidden") + parser.getint("net", "hidden")')


def test_an_item_of_a_dict_the_code_changes_in_place_is_no_size_of_its_own() -> None:
    # `cfg["hidden"] = cfg["hidden"] * 2` (or `cfg.update(...)`, or a function that may change it) between two reads:
    # they are not one size, so the doubled layer and the tensor read after it must not disagree (a false SC105)
    assert probe('''
        import torch
        def widen(d):
            d["hidden"] *= 2
        def f(cfg, spec, opts):
            before = cfg["hidden"]
            cfg["hidden"] = cfg["hidden"] * 2
            probe_dim(cfg["hidden"])
            spec.update(hidden=3)
            probe_dim(spec["hidden"])
            widen(opts)
            probe_dim(opts["hidden"])
    ''') == [None, None, None]


def test_a_count_the_code_does_not_state_is_one_size_of_its_own() -> None:
    # a multi-hot target built for a list whose length the code does not state (a parameter, what `json.load`
    # returns) keeps its known width (the class count), so a (B, 14) output against it is still checked; two such
    # counts are never taken to differ, and a tensor's length is still its first dim
    assert probe('''
        import json
        import torch
        FINDINGS = ["Effusion", "Mass", "Nodule"]
        def encode(label_strings, other, x, path):
            rows = torch.zeros(len(label_strings), len(FINDINGS))
            probe(rows)
            probe_conflict(rows + torch.zeros(len(other), 3))
            probe_dim(len(x.shape))
            probe_dim(len(label_strings) // 2)
            with open(path) as f:
                records = json.load(f)
            probe(torch.zeros(len(records), len(FINDINGS)))
            probe(torch.zeros(len(torch.zeros(5, 2)), 4))
    ''') == ["(len(label_strings), 3)", None, "len(x.shape)", "len(label_strings) // 2", "(len(records), 3)",
             "(5, 4)"]
