"""SC216 reads a loop body as two iterations, einsum's saved operands and one-line helpers of graph tensors."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from shapecheck.engine.context import Context, Point
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT

MODULE = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    def feature_map(x):
        return F.elu(x) + 1
    def sizes(x):
        return x.shape
    class Scan(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.proj = nn.Linear(d, 2 * d)
        def forward(self, x):
            q, k = self.proj(x).chunk(2, dim=-1)
"""


def rows(body: str) -> list[int]:
    source = textwrap.dedent(MODULE) + textwrap.indent(textwrap.dedent(body), " " * 8)
    return [finding.location.row for finding in lint_text(source, "model.py", resolve(["SC216"])).findings]


def test_a_state_saved_late_in_one_iteration_and_changed_in_place_early_in_the_next() -> None:
    assert rows("""
        q = feature_map(q)
        state = x.new_zeros(x.size(0), x.size(2), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state += torch.einsum("nd,nm->ndm", k[:, i], k[:, i])
            outs.append(torch.einsum("nd,ndm->nm", q[:, i], state))
        return torch.stack(outs, 1)
    """) == [20]


def test_a_state_rebound_each_iteration_or_saved_by_nothing_is_clean() -> None:
    assert rows("""
        state = x.new_zeros(x.size(0), x.size(2), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state = state + torch.einsum("nd,nm->ndm", k[:, i], k[:, i])
            outs.append(torch.einsum("nd,ndm->nm", q[:, i], state))
        return torch.stack(outs, 1)
    """) == []
    assert rows("""
        total = x.new_zeros(x.size(0), x.size(2))
        for i in range(x.size(1)):
            total += q[:, i] + k[:, i]
        return total
    """) == []


def test_a_helper_s_result_is_in_the_graph_only_through_what_it_is_handed() -> None:
    assert rows("""
        n = sizes(q)[0]
        state = x.new_zeros(x.size(0), x.size(2))
        outs = []
        for i in range(n):
            state += k[:, i]
            outs.append(feature_map(q[:, i]) * state)
        return torch.stack(outs, 1)
    """) == [20]
    assert rows("""
        state = x.new_zeros(x.size(0), x.size(2))
        outs = []
        for i in range(x.size(1)):
            state += x[:, i]
            outs.append(feature_map(x[:, i]) * state)
        return torch.stack(outs, 1)
    """) == []


L2NORM = """
    import torch
    import torch.nn as nn
    class L2Norm(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(c))
        def forward(self, x):
            norm = x.pow(2).sum(dim=1, keepdim=True).sqrt()
            x /= norm
            return self.weight.view(1, -1, 1, 1) * x
"""


def lint_l2norm(caller: str) -> list[int]:
    source = textwrap.dedent(L2NORM) + textwrap.dedent(caller)
    return [finding.location.row for finding in lint_text(source, "model.py", resolve(["SC216"])).findings]


def test_a_module_s_input_is_in_the_graph_when_a_call_of_its_instance_hands_it_a_layer_s_output() -> None:
    assert lint_l2norm("""
        class SSD(nn.Module):
            def __init__(self):
                super().__init__()
                self.features = nn.Conv2d(3, 8, 3)
                self.l2norm = L2Norm(8)
            def forward(self, images):
                x = self.features(images)
                return self.l2norm(x)
    """) == [10]
    # a script's instance, handed a convolution's output
    assert lint_l2norm("""
        conv, norm = nn.Conv2d(3, 8, 3), L2Norm(8)
        out = norm(conv(torch.randn(2, 3, 8, 8)))
    """) == [10]


def test_a_module_handed_raw_data_or_called_without_autograd_is_clean() -> None:
    assert lint_l2norm("""
        class SSD(nn.Module):
            def __init__(self):
                super().__init__()
                self.l2norm = L2Norm(3)
                self.features = nn.Conv2d(3, 8, 3)
            def forward(self, images):
                return self.features(self.l2norm(images))
        SSD()(torch.randn(2, 3, 8, 8))
    """) == []
    assert lint_l2norm("""
        conv, norm = nn.Conv2d(3, 8, 3), L2Norm(8)
        with torch.no_grad():
            out = norm(conv(torch.randn(2, 3, 8, 8)))
    """) == []


def test_the_calls_of_module_instances_are_found_once_a_file_however_many_classes_are_probed(monkeypatch) -> None:
    """Each module class whose `forward` changes its input in place is probed for the calls handing it a graph
    tensor; the file's calls were gone through again for each (the editor pays for it at every keystroke). Here the
    only calls of a name in a function are the two `super()`s, each read at its function's end once."""
    asked: list[cst.FunctionDef] = []
    point_after = Context.point_after

    def noting(ctx: Context, function: cst.FunctionDef) -> Point | None:
        asked.append(function)
        return point_after(ctx, function)

    monkeypatch.setattr(Context, "point_after", noting)
    assert lint_l2norm("""
        class Scale(nn.Module):
            def __init__(self):
                super().__init__()
            def forward(self, x):
                y = torch.sigmoid(x)
                y.mul_(2)
                return y
        conv, norm, scale = nn.Conv2d(3, 8, 3), L2Norm(8), Scale()
        out = scale(norm(conv(torch.randn(2, 3, 8, 8))))
    """) == [10, 18]
    assert len(asked) == 2


LAYERS = """
    import torch
    import torch.nn as nn
    class L2Norm(nn.Module):
        def __init__(self, n_channels, scale):
            super().__init__()
            self.weight = nn.Parameter(torch.full((n_channels,), float(scale)))
        def forward(self, x):
            norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + 1e-10
            x /= norm
            return self.weight[None, :, None, None] * x
"""

SSD = """
    import torch
    import torch.nn as nn
    from layers import L2Norm
    class SSD(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv4_3 = nn.Conv2d(3, 16, 3, padding=1)
            self.l2norm = L2Norm(16, 20)
            self.head = nn.Conv2d(16, 8, 3, padding=1)
        def forward(self, images):
            x = torch.relu(self.conv4_3(images))
            return self.head(self.l2norm(x))
"""


def lint_layers(folder: Path, ssd: str) -> list[int]:
    """SC216's rows in `layers.py` of a project (PytorchSSD's layout) whose `models/ssd.py` is `ssd`."""
    files = {"setup.py": "", "layers.py": LAYERS, "models/__init__.py": "", "models/ssd.py": ssd}
    return lint_project(folder, files, "layers.py")


def lint_project(folder: Path, files: dict[str, str], linted: str) -> list[int]:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    path = folder / linted
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC216"])).findings]


def test_a_module_s_input_is_in_the_graph_when_an_importer_hands_it_a_layer_s_output(tmp_path: Path) -> None:
    assert lint_layers(tmp_path, SSD) == [10]


def test_a_module_an_importer_hands_only_raw_or_detached_data_is_clean(tmp_path: Path) -> None:
    raw = SSD.replace("self.l2norm(x)", "x + self.l2norm(images.clone())")
    detached = SSD.replace("self.l2norm(x)", "x + self.l2norm(x.detach())")
    no_grad = SSD.replace("return self.head(self.l2norm(x))",
                          "with torch.no_grad():\n                x = self.l2norm(x)\n            return self.head(x)")
    for name, ssd in {"raw": raw, "detached": detached, "no_grad": no_grad}.items():
        (tmp_path / name).mkdir()
        assert lint_layers(tmp_path / name, ssd) == [], name


def test_an_importer_reached_through_the_packages_that_re_export_the_class(tmp_path: Path) -> None:
    """S3FD's layout: `layers/modules/l2norm.py`, re-exported by `layers/modules/__init__.py` and `layers/__init__.py`
    (`from .modules import *`), built in `s3fd.py` after `from layers import *`."""
    files = {"setup.py": "", "layers/__init__.py": "from .modules import *\n",
             "layers/modules/__init__.py": "from .l2norm import L2Norm\n", "layers/modules/l2norm.py": LAYERS,
             "s3fd.py": SSD.replace("from layers import L2Norm", "from layers import *")}
    assert lint_project(tmp_path, files, "layers/modules/l2norm.py") == [10]


BLOCKS = """
    import torch
    import torch.nn as nn

    class TanhAttention(nn.Module):
        def __init__(self, d, p=0.1):
            super().__init__()
            self.score = nn.Linear(d, d)
            self.drop = nn.Dropout(p)
            self.value = nn.Linear(d, d)

        def forward(self, x):
            weights = torch.tanh(self.score(x))
            weights = self.drop(weights)
            return self.value(x) * weights
"""

# The model of another module builds the block inside a backbone of its own and switches layers to in place;
# `%s` is the isinstance test.
SWITCHING_MODEL = """
    import torch.nn as nn
    from nets.blocks import TanhAttention

    class Backbone(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.attend = TanhAttention(d)
            self.act = nn.ReLU()

        def forward(self, x):
            return self.act(self.attend(x))

    class Tagger(nn.Module):
        def __init__(self, d, n_tags):
            super().__init__()
            self.backbone = Backbone(d)
            self.out = nn.Linear(d, n_tags)
            for _, module in self.named_modules():
                if %s:
                    module.inplace = True

        def forward(self, x):
            return self.out(self.backbone(x))
"""


def lint_switched(folder: Path, test: str) -> list[int]:
    files = {"setup.py": "", "nets/__init__.py": "", "nets/blocks.py": BLOCKS,
             "nets/tagger.py": SWITCHING_MODEL % test}
    return lint_project(folder, files, "nets/blocks.py")


def test_a_dropout_a_module_of_another_file_switches_to_in_place_overwrites_what_tanh_saved(tmp_path: Path) -> None:
    assert lint_switched(tmp_path, "isinstance(module, nn.Dropout) or isinstance(module, nn.ReLU)") == [14]


def test_switching_other_layers_or_by_a_test_not_naming_the_kind_is_clean(tmp_path: Path) -> None:
    for name, test in {"relu": "isinstance(module, nn.ReLU)", "other": "isinstance(module, nn.LeakyReLU)",
                       "unknown": "getattr(module, 'fuse', False)"}.items():
        (tmp_path / name).mkdir()
        assert lint_switched(tmp_path / name, test) == [], name


def test_a_switch_in_a_module_that_does_not_build_the_block_is_clean(tmp_path: Path) -> None:
    unrelated = (SWITCHING_MODEL % "isinstance(module, nn.Dropout)").replace(
        "self.backbone = Backbone(d)", "self.backbone = nn.Linear(d, d)")
    files = {"setup.py": "", "nets/__init__.py": "", "nets/blocks.py": BLOCKS, "nets/tagger.py": unrelated}
    assert lint_project(tmp_path, files, "nets/blocks.py") == []


def test_a_switch_reaches_a_block_built_through_a_factory_function(tmp_path: Path) -> None:
    """MVANet's form: the model builds its backbone with `SwinB()`, a function returning the network whose stages
    build the attention block."""
    through_factory = (SWITCHING_MODEL % "isinstance(module, nn.Dropout)").replace(
        "self.backbone = Backbone(d)", "self.backbone = make_backbone(d)").replace(
        "class Tagger(", "def make_backbone(d):\n        return Backbone(d)\n\n    class Tagger(")
    files = {"setup.py": "", "nets/__init__.py": "", "nets/blocks.py": BLOCKS, "nets/tagger.py": through_factory}
    assert lint_project(tmp_path, files, "nets/blocks.py") == [14]


def test_a_switched_dropout_of_rate_zero_by_default_drops_nothing_and_is_clean(tmp_path: Path) -> None:
    """Swin's `nn.Dropout(attn_drop)` with `attn_drop=0.`: in place or not, a rate of 0 leaves the tensor as it is."""
    files = {"setup.py": "", "nets/__init__.py": "", "nets/blocks.py": BLOCKS.replace("p=0.1", "p=0."),
             "nets/tagger.py": SWITCHING_MODEL % "isinstance(module, nn.Dropout)"}
    assert lint_project(tmp_path, files, "nets/blocks.py") == []


def test_an_in_place_op_on_a_view_split_chunk_or_unbind_returned_of_a_graph_tensor() -> None:
    assert rows("""
        q *= 0.5
        return q + k
    """) == [16]
    assert rows("""
        i, f, o = torch.sigmoid(q).split(2, dim=1)
        f[:, 0] = 0.0
        parts = torch.unbind(k, dim=1)
        parts[0].clamp_(min=0)
        return f * o + i + parts[0]
    """) == [17, 19]


def test_views_of_raw_data_or_taken_without_autograd_or_rebound_out_of_place_are_clean() -> None:
    assert rows("""
        left, right = x.detach().chunk(2, dim=0)
        right.mul_(0.5)
        with torch.no_grad():
            a, b = self.proj(x).chunk(2, dim=-1)
            a.mul_(2)
        q = q * 0.5
        q.add_(1.0)
        return q + k + left + a
    """) == []


def test_a_layer_keeps_the_input_it_is_handed_even_one_needing_no_gradient() -> None:
    # a refiner updating its state in place after the linear layer kept it, in a loop
    assert rows("""
        state = x * 1.0
        for _ in range(3):
            delta = self.proj(state)[..., : x.size(-1)]
            state.add_(delta)
        return state
    """) == [19]
    assert rows("""
        x -= x.mean(dim=0)
        h = self.proj(x)
        return h
    """) == []


LOSSES = """
    import torch
    def soft_dice_loss(logits, target):
        probs = torch.softmax(logits, dim=1)
        probs[:, 0] = 0.0
        onehot = torch.nn.functional.one_hot(target, logits.size(1)).float()
        return 1 - (2 * (probs * onehot).sum() + 1) / (probs.sum() + onehot.sum() + 1)
"""

TRAINER = """
    import torch
    from seg.losses import soft_dice_loss
    class SegTrainer:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.Adam(model.parameters())
        def train_step(self, images, masks):
            logits = self.model(images)
            loss = soft_dice_loss(logits, masks)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
"""


def lint_losses(folder: Path, trainer: str) -> list[int]:
    """SC216's rows in the loss helpers of a package whose trainer, in another module, is `trainer`."""
    files = {"setup.py": "", "seg/__init__.py": "", "seg/losses.py": LOSSES, "seg/trainer.py": trainer}
    return lint_project(folder, files, "seg/losses.py")


def test_a_loss_helper_of_another_module_handed_a_model_s_output_by_a_trainer_that_backpropagates(
        tmp_path: Path) -> None:
    assert lint_losses(tmp_path, TRAINER) == [5]
    (tmp_path / "relative").mkdir()
    assert lint_losses(tmp_path / "relative", TRAINER.replace("from seg.losses", "from .losses")) == [5]


def test_a_loss_helper_whose_result_is_a_metric_or_is_computed_without_autograd_is_clean(tmp_path: Path) -> None:
    metric = TRAINER.replace("loss = soft_dice_loss(logits, masks)",
                             "dice = soft_dice_loss(logits, masks).item()\n            loss = logits.mean()")
    no_grad = TRAINER.replace("    def train_step", "    @torch.no_grad()\n        def train_step").replace(
        "loss.backward()", "pass")
    detached = TRAINER.replace("logits = self.model(images)", "logits = self.model(images).detach()")
    for name, trainer in {"metric": metric, "no_grad": no_grad, "detached": detached}.items():
        (tmp_path / name).mkdir()
        assert lint_losses(tmp_path / name, trainer) == [], name


TRAINER_METHOD = """
    import torch
    import torch.nn.functional as F
    class MultiLabelTrainer:
        def __init__(self, model):
            self.model = model
            self.optimizer = torch.optim.Adam(model.parameters())
        def compute_loss(self, logits, targets):
            probs = torch.sigmoid(logits)
            %s
            return F.binary_cross_entropy(probs, targets.clamp(min=0))
        def train_step(self, x, y):
            logits = self.model(x)
            loss = self.compute_loss(logits, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
"""


def test_a_trainer_s_loss_method_handed_the_model_s_output_by_a_name() -> None:
    def lint(change: str) -> list[int]:
        source = textwrap.dedent(TRAINER_METHOD % change)
        return [finding.location.row for finding in lint_text(source, "trainer.py", resolve(["SC216"])).findings]

    assert lint("probs[targets < 0] = 0.5") == [10]
    assert lint("probs = probs.masked_fill(targets < 0, 0.5)") == []


# A functional gated cell of another module, handed the weights an encoder keeps as parameters: `%s` is what it
# does to the update gate, one of the views `chunk` returns of the sigmoid.
FUNCTIONAL_CELL = """
    import torch

    def gated_cell(x, h, mask, w_ih, w_hh, b):
        gates = torch.sigmoid(x @ w_ih.t() + h @ w_hh.t() + b)
        update, reset, out = gates.chunk(3, dim=-1)
        %s
        cand = torch.tanh(reset * h)
        return (1 - update) * h + update * cand * out
    """

CELL_ENCODER = """
    import torch
    import torch.nn as nn

    from cells import gated_cell

    class Encoder(nn.Module):
        def __init__(self, vocab, emb, hidden):
            super().__init__()
            self.emb = nn.Embedding(vocab, emb)
            self.w_ih = nn.Parameter(torch.randn(3 * hidden, emb) * 0.1)
            self.w_hh = nn.Parameter(torch.randn(3 * hidden, hidden) * 0.1)
            self.b = %s
            self.hidden = hidden

        def forward(self, tokens, lengths):
            h = torch.zeros(tokens.size(0), self.hidden)
            x = self.emb(tokens)
            for i in range(tokens.size(1)):
                h = gated_cell(x[:, i], h, lengths > i, self.w_ih, self.w_hh, self.b)
            return h
    """


def _cell(tmp_path: Path, change: str, bias: str = "nn.Parameter(torch.zeros(3 * hidden))") -> list[int]:
    files = {"cells.py": FUNCTIONAL_CELL % change, "model.py": CELL_ENCODER % bias}
    return lint_project(tmp_path, files, "cells.py")


def test_a_split_view_of_a_functional_cell_s_gate_made_of_the_weights_a_module_hands_it(tmp_path: Path) -> None:
    assert _cell(tmp_path, "update.masked_fill_(~mask.unsqueeze(-1), 0.0)") == [7]


def test_the_gate_masked_out_of_place_is_clean(tmp_path: Path) -> None:
    assert _cell(tmp_path, "update = update.masked_fill(~mask.unsqueeze(-1), 0.0)") == []


def test_a_view_of_a_saved_output_changed_in_place_through_a_masked_assignment() -> None:
    source = textwrap.dedent("""
        import torch
        import torch.nn.functional as F

        def step(fc, x, y, opt):
            pred = torch.sigmoid(fc(x)).squeeze(-1)
            pred[pred < 1e-4] = 1e-4
            loss = F.binary_cross_entropy(pred, y)
            loss.backward()
            opt.step()

        fc = torch.nn.Linear(6, 1)
        step(fc, torch.randn(10, 6), torch.rand(10), torch.optim.SGD(fc.parameters(), lr=0.1))
        """)
    found = lint_text(source, "train.py", resolve(["SC216"])).findings
    assert [finding.location.row for finding in found] == [7]
    # a reshape after a transpose copies; a clone is a copy: the saved output is untouched
    for copy in ("torch.sigmoid(fc(x)).t().reshape(-1)", "torch.sigmoid(fc(x)).squeeze(-1).clone()"):
        clean = source.replace("torch.sigmoid(fc(x)).squeeze(-1)", copy)
        assert lint_text(clean, "train.py", resolve(["SC216"])).findings == []
