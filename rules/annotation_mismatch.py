"""SC108 annotation-mismatch: a returned tensor, an argument to an annotated function or method of the project, or
a value assigned to an annotated variable, whose inferred shape contradicts the jaxtyping annotation."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Rule
from shapecheck.shapes.messages import quoted
from shapecheck.objects.values import FunctionValue, Instance
from shapecheck.shapes.annotations import stated_shape
from shapecheck.shapes import runs
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator, shape_of
from shapecheck.shapes.signature import (argument_shapes, assigned_shape, call_contradiction, contradiction,
                                         parameters_in_run, return_shape, shape_tested)


# huggingface/transformers#2768: a sentence head typed `"batch dim"` given the encoder's states, `%s` (all of them,
# or the first token's)
_TYPED_HEAD = """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor, nn
        class Encoder(nn.Module):
            def __init__(self, vocab: int = 300, dim: int = 32) -> None:
                super().__init__()
                self.tok = nn.Embedding(vocab, dim)
            def forward(self, ids: Int[Tensor, "batch seq"]) -> Float[Tensor, "batch seq dim"]:
                return self.tok(ids)
        class Head(nn.Module):
            def __init__(self, dim: int = 32, classes: int = 7) -> None:
                super().__init__()
                self.fc = nn.Linear(dim, classes)
            def forward(self, pooled: Float[Tensor, "batch dim"]) -> Float[Tensor, "batch classes"]:
                return self.fc(pooled)
        class Classifier(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.encoder = Encoder()
                self.head = Head()
            def forward(self, ids):
                hidden = self.encoder(ids)
                return self.head(%s)
        """

# A conv front end's (batch, channels, frames) output given to an encoder typed time-major, `%s` what is done to it
# first and which dim the padding mask counts
_TYPED_ENCODER = """
        import torch
        from jaxtyping import Bool, Float
        from torch import Tensor, nn
        class Encoder(nn.Module):
            def __init__(self, d_model: int = 32) -> None:
                super().__init__()
                self.norm = nn.LayerNorm(d_model)
            def forward(self, x: Float[Tensor, "batch time d_model"], mask: Bool[Tensor, "batch time"]) -> Tensor:
                return x.masked_fill(mask[..., None], 0.0)
        class Model(nn.Module):
            def __init__(self, n_mels: int = 40, d_model: int = 32) -> None:
                super().__init__()
                self.subsample = nn.Sequential(nn.Conv1d(n_mels, 2 * d_model, 3, stride=2, padding=1), nn.GLU(dim=1))
                self.encoder = Encoder(d_model)
            def forward(self, mels, lengths):
                feats = self.subsample(mels)%s
                mask = torch.arange(feats.shape[%s]).unsqueeze(0) >= lengths.unsqueeze(1)
                return self.encoder(feats, mask)
        model = Model()
        out = model(torch.randn(3, 40, 60), torch.tensor([30, 26, 22]))
        """


class AnnotationMismatch(Rule):
    code = "SC108"
    name = "annotation-mismatch"
    raises = True  # not reported where a test expects the error
    message = "the inferred shape contradicts the jaxtyping annotation"
    triggers = ("jaxtyping",)
    triggered_through_imports = True  # reports at a call what a first-party module does (see Rule)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Reads jaxtyping annotations (`Float[Tensor, "B T D"]`, `*batch`, `...`, `_`, `#`, literals, `""`) and
        finds where they contradict the shapes the analysis infers:
        - a `return` whose value has a shape the function's return annotation rules out: another rank, a literal
          that differs, or two different annotation names in the same place (`(B, D, T)` returned as
          `"B T D"`: the function must work for every size, so `T` and `D` are different sizes);
        - a call of a function or method of the project (this file's or an imported module's) whose parameters
          are annotated, or of a model whose `forward`'s are (`self.head(hidden)`), with an argument whose shape
          can't fit: another rank, a literal that differs, or one annotation name (`D`) given two sizes proven
          different by two arguments; also inside the code a call runs, on the sizes the call gives;
        - a value assigned to a variable annotated with a shape (`y: Float[Tensor, "B 32"] = self.proj(x)`) that
          can't have it; a name of that annotation that no parameter of the function states takes the value's
          size, as jaxtyping binds it (so does every name of a module's or a class body's annotation: a pydantic
          field `kl: Float[Tensor, "batch seq"] = torch.empty(0, 1024)` makes `batch` 0);
        - at a call of a function or method of the project, its annotated locals and returned value on the call's
          sizes: `x: Float[Tensor, "B T D"]` given a (2, 6, 32) tensor makes `T` 6 in the whole function, so a
          local annotated `"B H T T"` that comes out (2, 6, 4, 4) is reported at the call.

        An annotation may name a type alias of the module (`Image = Float[Tensor, "3 224 224"]`). The names of
        a method's annotations are the class's: `N` in `__init__` and `N` in `forward` are one size.

        Names that are not annotation symbols are sizes the analysis can't tell apart: they never contradict
        anything. `_`, `#name`, `*batch` and `...` match whatever they stand for.

        ## Why is this bad?
        The primer writes shapes next to every tensor (`# (B, T, D)`) because "shape arithmetic ... is the single
        most common source of confusion". An annotation is that comment made checkable; a function whose body
        contradicts it fails the runtime check (`@shapecheck.check`, jaxtyping with beartype) or, without it,
        hands a wrongly shaped tensor to code that trusts the annotation.

        ## Example
        ```python
        def pool(x: Float[Tensor, "B T D"]) -> Float[Tensor, "B D"]:
            return x.mean(dim=1, keepdim=True)   # (B, 1, D)

        def attend(q: Float[Tensor, "B T D"], k: Float[Tensor, "B S D"]) -> Float[Tensor, "B T S"]: ...
        scores = attend(torch.randn(2, 5, 64), torch.randn(2, 7, 32))  # D is 64 and 32
        ```

        ## Use instead
        ```python
        def pool(x: Float[Tensor, "B T D"]) -> Float[Tensor, "B D"]:
            return x.mean(dim=1)

        scores = attend(torch.randn(2, 5, 64), torch.randn(2, 7, 64))
        ```
    """
    VALID = [
        # a pydantic model's fields start empty: `batch` is 0 in the defaults, jaxtyping binds it to whatever the
        # value holds
        """
        import torch
        from jaxtyping import Float, Int
        from pydantic import BaseModel, ConfigDict
        from torch import Tensor

        class ProbeCache(BaseModel):
            model_config = ConfigDict(arbitrary_types_allowed=True)

            tokens: Int[Tensor, "batch seq"] = torch.empty(0, 256, dtype=torch.long)
            resid: Float[Tensor, "batch seq d_model"] = torch.empty(0, 256, 768)
        """,
        # a local's name no parameter states takes the value's size: `n_steps` is 50 here
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        def noise_schedule(x0: Float[Tensor, "B C"]) -> Tensor:
            betas: Float[Tensor, "n_steps"] = torch.linspace(1e-4, 0.02, 50)
            return x0 * betas.cumprod(0)[-1]
        """,
        # a size named in `__init__` and in `forward` is one size of the object
        """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor
        class Mix(nn.Module):
            def __init__(self, a: Float[Tensor, "N N"]):
                super().__init__()
                self.a: Float[Tensor, "N N"] = a
            def forward(self, x: Float[Tensor, "B N F"]) -> Float[Tensor, "B N F"]:
                return self.a @ x
        """,
        # an annotated local that agrees, and an alias used consistently
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        Image = Float[Tensor, "3 H W"]
        def normalize(img: Image) -> Image:
            scaled: Float[Tensor, "3 H W"] = img / 255.0
            return scaled
        normalize(torch.rand(3, 224, 224))
        """,
        # nerfstudio: a *batch run with a trailing literal
        """
        from jaxtyping import Float
        from torch import Tensor
        def get_normalized_directions(directions: Float[Tensor, "*bs 3"]) -> Float[Tensor, "*bs 3"]:
            return (directions + 1.0) / 2.0
        """,
        # nerfstudio tv_loss: a full reduction returned as a scalar
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def tv_loss(grids: Float[Tensor, "grids feature_dim row column"]) -> Float[Tensor, ""]:
            h_tv = torch.pow((grids[:, :, 1:, :] - grids[:, :, :-1, :]), 2).sum()
            return h_tv
        """,
        # a reduction that drops the dim the annotation drops
        """
        from jaxtyping import Float
        from torch import Tensor
        def pool(x: Float[Tensor, "B T D"]) -> Float[Tensor, "B D"]:
            return x.mean(dim=1)
        """,
        # nerfstudio lie_groups: a (b, 3, 4) built from the first dim of the input
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def exp_map(tangent_vector: Float[Tensor, "b 6"]) -> Float[Tensor, "b 3 4"]:
            ret = torch.zeros(tangent_vector.shape[0], 3, 4)
            return ret
        """,
        # nerfstudio: a name only the return uses is whatever the return gives it
        """
        from jaxtyping import Shaped
        from torch import Tensor
        class Identity:
            def forward(self, in_tensor: Shaped[Tensor, "*bs input_dim"]) -> Shaped[Tensor, "*bs output_dim"]:
                return in_tensor
        """,
        # nerfstudio colormaps: the code tests the shape before it returns
        """
        from jaxtyping import Float
        from torch import Tensor
        def apply_colormap(image: Float[Tensor, "*bs channels"]) -> Float[Tensor, "*bs rgb=3"]:
            if image.shape[-1] == 3:
                return image
            return image[..., :3]
        """,
        # calls whose arguments fit, one through names the analysis can't compare
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def attend(q: Float[Tensor, "B T D"], k: Float[Tensor, "B S D"]) -> Float[Tensor, "B T S"]:
            return q @ k.transpose(1, 2)
        scores = attend(torch.randn(2, 5, 64), torch.randn(2, 7, 64))
        def run(x, n, d):
            return attend(torch.randn(2, n, d), x)
        """,
        # an annotated local that holds on the call's sizes: tiles of 1 keep the image's size
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def tiles(img: Float[Tensor, "B C H W"], k: int) -> Tensor:
            b, c, h, w = img.shape
            grid: Float[Tensor, "B C H W"] = img.reshape(b, c, h // k, w * k)
            return grid
        grid = tiles(torch.rand(2, 3, 8, 8), 1)
        """,
        # a model's typed step method called from `forward`, on sizes that agree (embed 32, hidden 64)
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor, nn
        class GRUDecoder(nn.Module):
            def __init__(self, vocab: int = 100, embed: int = 32, hidden: int = 64) -> None:
                super().__init__()
                self.embed = nn.Embedding(vocab, embed)
                self.cell = nn.GRUCell(embed, hidden)
                self.out = nn.Linear(hidden, vocab)
            def step(self, x: Float[Tensor, "batch embed"], h: Float[Tensor, "batch hidden"]) -> Float[Tensor, "batch hidden"]:
                return self.cell(x, h)
            def forward(self, tokens: Tensor, h: Tensor) -> Tensor:
                outputs = []
                for t in range(tokens.size(1)):
                    h = self.step(self.embed(tokens[:, t]), h)
                    outputs.append(self.out(h))
                return torch.stack(outputs, dim=1)
        decoder = GRUDecoder()
        logits = decoder(torch.randint(0, 100, (8, 12)), torch.zeros(8, 64))
        """,
        # a sentence head typed `"batch dim"` given the first token's state
        _TYPED_HEAD % "hidden[:, 0]",
        # a conv front end's channels-first output moved to time-major before a typed encoder
        _TYPED_ENCODER % (".transpose(1, 2)", "1"),
        # a padding mask built batch-first from lengths; a batch's similarities with itself, typed with a second name
        """
        import torch
        from jaxtyping import Bool, Float, Int
        from torch import Tensor
        def lengths_to_mask(lengths: Int[Tensor, " B"], max_len: int) -> Bool[Tensor, "B T"]:
            return torch.arange(max_len, device=lengths.device)[None, :] >= lengths[:, None]
        def similarities(x: Float[Tensor, "N D"]) -> Float[Tensor, "N M"]:
            return x @ x.T
        """,
    ]
    INVALID = [
        # the padding mask built time-major: `B` where `T` is annotated, and a length in `B`'s place
        """
        import torch
        from jaxtyping import Bool, Int
        from torch import Tensor
        def lengths_to_mask(lengths: Int[Tensor, " B"], max_len: int) -> Bool[Tensor, "B T"]:
            steps = torch.arange(max_len, device=lengths.device)
            return steps.unsqueeze(1) >= lengths.unsqueeze(0)
        """,
        # a method of a trainer, annotated, called with the wrong feature size
        """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(128, 64)
            def encode(self, x: Float[Tensor, "batch 128"]) -> Float[Tensor, "batch 64"]:
                return self.proj(x)
        class Trainer:
            def __init__(self, encoder: Encoder):
                self.encoder = encoder
            def step(self, batch: Float[Tensor, "batch 256"]):
                return self.encoder.encode(batch)
        """,
        # the annotations inside a method hold on the sizes of the call: `H` is 8 here, `W` both 8 and 16
        """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor
        class PatchGrid(nn.Module):
            def __init__(self, patch: int = 4) -> None:
                super().__init__()
                self.patch = patch
            def grid(self, img: Float[Tensor, "B C H W"]) -> Tensor:
                b, c, h, w = img.shape
                cells: Float[Tensor, "B C H W"] = img.reshape(b, c, h // self.patch, w * self.patch)
                return cells
        grids = PatchGrid().grid(torch.rand(2, 3, 8, 8))
        """,
        # a local annotated with a parameter's name, which stands for every size, filled with a fixed 16
        """
        import torch
        from jaxtyping import Float, Int
        from torch import Tensor
        def add_positions(tokens: Int[Tensor, "B T"], emb: Float[Tensor, "B T D"]) -> Tensor:
            pos: Float[Tensor, "T D"] = torch.zeros(16, 32)
            return emb + pos
        """,
        # a local variable annotated with a shape the value can't have
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def pool(x: Float[Tensor, "B T D"]) -> Tensor:
            pooled: Float[Tensor, "B D"] = x.mean(dim=1, keepdim=True)
            return pooled
        """,
        # through a type alias of the module
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        Image = Float[Tensor, "3 224 224"]
        def normalize(img: Image) -> Image:
            return img / 255.0
        normalize(torch.rand(224, 224, 3))
        """,
        # nerfstudio monosdf_normal_loss: `"0"` is a (0,) tensor, not a scalar (`""`)
        """
        from jaxtyping import Float
        from torch import Tensor
        def normal_loss(pred: Float[Tensor, "n 3"], gt: Float[Tensor, "n 3"]) -> Float[Tensor, "0"]:
            return (pred - gt).abs().sum(dim=-1).mean()
        """,
        """
        from jaxtyping import Float
        from torch import Tensor
        def pool(x: Float[Tensor, "B T D"]) -> Float[Tensor, "B D"]:
            return x.mean(dim=1, keepdim=True)
        """,
        # T and D swapped
        """
        from jaxtyping import Float
        from torch import Tensor
        def heads_last(x: Float[Tensor, "B T D"]) -> Float[Tensor, "B T D"]:
            return x.transpose(1, 2)
        """,
        # one annotation name, two sizes
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def attend(q: Float[Tensor, "B T D"], k: Float[Tensor, "B S D"]) -> Float[Tensor, "B T S"]:
            return q @ k.transpose(1, 2)
        scores = attend(torch.randn(2, 5, 64), torch.randn(2, 7, 32))
        """,
        # a literal in the annotation
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def to_rgb(img: Float[Tensor, "B 3 H W"]) -> Float[Tensor, "B 3 H W"]:
            return img.clamp(0, 1)
        out = to_rgb(torch.rand(8, 4, 32, 32))
        """,
        # the rank: an unbatched image to a batched function
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor
        def to_rgb(img: Float[Tensor, "B 3 H W"]) -> Float[Tensor, "B 3 H W"]:
            return img.clamp(0, 1)
        out = to_rgb(torch.rand(3, 32, 32))
        """,
        # a function the called function calls: resized to 224 but annotated to keep the 256 it was given
        """
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        from torch import Tensor
        def resize(img: Float[Tensor, "C H W"], size: int) -> Float[Tensor, "C H W"]:
            return F.interpolate(img[None], size=(size, size), mode="bilinear")[0]
        def preprocess(img, size=224):
            return resize(img, size) * 2 - 1
        batch = preprocess(torch.rand(3, 256, 256))
        """,
        # a model's `forward` calling a typed step method: the step returns (B, hidden), annotated (B, embed)
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor, nn
        class Cell(nn.Module):
            def __init__(self, embed: int = 12, hidden: int = 10) -> None:
                super().__init__()
                self.w_x = nn.Linear(embed, hidden)
                self.w_h = nn.Linear(hidden, hidden)
            def step(self, x: Float[Tensor, "B E"], h: Float[Tensor, "B H"]) -> Float[Tensor, "B E"]:
                return torch.tanh(self.w_x(x) + self.w_h(h))
            def forward(self, x: Tensor) -> Tensor:
                h = torch.zeros(x.size(0), 10)
                return self.step(x, h)
        cell = Cell()
        out = cell(torch.randn(4, 12))
        """,
        # a sentence head typed `"batch dim"` handed every token's state
        _TYPED_HEAD % "hidden",
        # the conv front end's output handed over channels-first: `time` is the channels in `x`, the frames in `mask`
        _TYPED_ENCODER % ("", "-1"),
    ]

    def visit_Return(self, node: cst.Return) -> None:
        function = self.ctx.function
        if node.value is None or function is None or shape_tested(self.ctx):
            return
        declared = return_shape(self.ctx, function)
        if declared is None:
            return
        inferred = shape_of(self.ctx, node.value)
        if inferred is None:
            return
        problem = contradiction(inferred, declared)
        if problem is not None:
            self.report(node, f"{quoted(self.ctx, node.value)} is {inferred.render()}, but "
                              f"`{function.name.value}` is annotated to return {declared.render()}: {problem}")

    def visit_Call(self, node: cst.Call) -> None:
        if type(node.func) not in (cst.Name, cst.Attribute) or shape_tested(self.ctx):
            return
        ev = evaluator(self.ctx)
        callee = ev.value(node.func)
        if not isinstance(callee, FunctionValue | Instance):  # a model's `forward` runs on the call's inputs too
            return
        called = _annotated_callee(ev, callee)
        if called is not None:
            if called.node is self.ctx.function:
                return
            problem = call_contradiction(argument_shapes(ev, called, node, ev.now()))
            if problem is not None:
                self.report(node, f"`{self.ctx.code(node.func)}(...)`: {problem}")
                return
        # the callee's own annotations (a local's, the return's), and those of the project code it calls in turn,
        # against what they compute on these arguments
        found = runs.project_run(ev, node, ev.now())
        inner = runs.found_in(ev, found[0], found[1], _stated_in_run(found[0].node), 0) if found else None
        if inner is not None:
            self.report(*runs.located(ev, node, ev.now(), inner))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is None or type(node.target) not in (cst.Name, cst.Attribute) or shape_tested(self.ctx):
            return
        owner = self.ctx.function if self.ctx.function is not None else self.ctx.module
        declared = assigned_shape(self.ctx, node.annotation.annotation, owner)
        if declared is None:
            return
        inferred = shape_of(self.ctx, node.value)
        problem = contradiction(inferred, declared) if inferred is not None else None
        if problem is not None:
            self.report(node, f"{quoted(self.ctx, node.value)} is {inferred.render()}, but `{self.ctx.code(node.target)}`"
                              f" is annotated {declared.render()}: {problem}")


def _stated_in_run(function: cst.FunctionDef, depth: int = runs.MAX_DEPTH) -> runs.Check:
    """A check of a run of `function`: an annotated local (`scores: Float[Tensor, "B H T T"] = ...`) or the returned
    value against its annotation, with the annotation names the parameters' sizes in this run (`T` is 6 when `x:
    Float[Tensor, "B T D"]` got a (2, 6, 32) tensor); and, `depth` calls deep, the same of the project code a call
    in the run makes, on the sizes the run gives it (`model(x)` runs `forward`, whose `self.step(e, h)` returns a
    (4, 10) annotated `"batch embedding"` when `e` is (4, 12))."""

    def check(ev: ShapeEvaluator, node: cst.CSTNode, version: int) -> str | runs.Found | None:
        if type(node) is cst.Call:
            return _stated_in_call(ev, node, version, depth - 1) if depth > 0 else None
        if type(node) is cst.AnnAssign and node.value is not None and type(node.target) is cst.Name:
            declared = stated_shape(ev.ctx, node.annotation.annotation, function)
            label = node.target.value
        elif type(node) is cst.Return and node.value is not None:
            declared = return_shape(ev.ctx, function)
            label = "returned"
        else:
            return None
        inferred = ev.tensor(node.value, version) if declared is not None else None
        if inferred is None:
            return None
        problem = call_contradiction([*parameters_in_run(ev, function, version), (label, inferred, declared)])
        return f"{quoted(ev.ctx, node.value)}: {problem}" if problem is not None else None

    return check


def _stated_in_call(ev: ShapeEvaluator, call: cst.Call, before: int, depth: int) -> str | runs.Found | None:
    """What `_stated_in_run` finds in the project code a call inside a run makes, on that run's sizes: first its
    arguments against the parameters' annotations, as at a call read on its own."""
    found = runs.project_run(ev, call, before)
    if found is None:
        return None
    callee, done = found
    problem = call_contradiction(argument_shapes(ev, callee, call, before))
    if problem is not None:
        return f"`{ev.ctx.code(call.func)}(...)`: {problem}"
    inner = runs.found_in(ev, callee, done, _stated_in_run(callee.node, depth), 0)
    return runs.Found(f"`{ev.ctx.code(call)}`: then in {inner.text}", inner.path) if inner is not None else None


def _annotated_callee(ev: ShapeEvaluator, callee: FunctionValue | Instance) -> FunctionValue | None:
    """The function whose parameters a call's arguments land on: the function itself, or a model's `forward`
    (`self.head(hidden)` passes `hidden` to `IntentHead.forward(self, pooled: Float[Tensor, "batch dim"])`)."""
    if isinstance(callee, FunctionValue):
        return callee
    found = runs.model(ev, callee)
    return found.forward if found is not None else None

