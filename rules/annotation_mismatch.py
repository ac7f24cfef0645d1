"""SC108 annotation-mismatch: a returned tensor, or an argument to an annotated function of the same file, whose
inferred shape contradicts the jaxtyping annotation."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Invalid, Rule
from shapecheck.rules._shape_messages import quoted
from shapecheck.shapes.signature import call_contradiction, contradiction, parameter_shapes, return_shape, shape_tested
from shapecheck.shapes.evaluator import shape_of


class AnnotationMismatch(Rule):
    code = "SC108"
    name = "annotation-mismatch"
    message = "the inferred shape contradicts the jaxtyping annotation"
    triggers = ("jaxtyping",)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Reads jaxtyping annotations (`Float[Tensor, "B T D"]`, `*batch`, `...`, `_`, `#`, literals, `""`) and
        finds two contradictions with the shapes the analysis infers:
        - a `return` whose value has a shape the function's return annotation rules out: another rank, a literal
          that differs, or two different annotation names in the same place (`(B, D, T)` returned as
          `"B T D"`: the function must work for every size, so `T` and `D` are different sizes);
        - a call, in the same file, of a function whose parameters are annotated, with an argument whose shape
          can't fit: another rank, a literal that differs, or one annotation name (`D`) given two sizes proven
          different by two arguments.

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
    ]
    INVALID = [
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
        if type(node.func) is not cst.Name:
            return
        binding = self.ctx.binding(node.func)
        function = binding.statement if binding is not None and binding.kind == "def" else None
        if type(function) is not cst.FunctionDef or function is self.ctx.function or shape_tested(self.ctx):
            return
        arguments = [(name, inferred, declared) for name, arg, declared in parameter_shapes(self.ctx, function, node)
                     if (inferred := shape_of(self.ctx, arg.value)) is not None]
        problem = call_contradiction(arguments)
        if problem is not None:
            self.report(node, f"`{function.name.value}(...)`: {problem}")
