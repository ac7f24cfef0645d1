"""SC103 stack-cat-roundtrip: `cat` of unsqueezed tensors is `stack`; `stack` merged straight back is `cat`."""

from __future__ import annotations

from typing import Literal

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.shapes.symbolic_sizes import (Size, argument, declared_shape, int_argument, literal_int, no_dim_ref,
                                           same_dim, shape_arguments, size_of, unsqueezed)

CAT = frozenset({"torch.cat", "torch.concat", "torch.concatenate"})
STACK = "torch.stack"
# Calls that certainly give a list or a tuple: what `torch.stack` accepts (a generator or a tensor it rejects).
SEQUENCE_BUILTINS = frozenset({"list", "tuple", "sorted"})
SEQUENCE_METHODS = frozenset({"split", "chunk", "unbind", "tensor_split"})
SEQUENCE_FUNCTIONS = frozenset({"torch.split", "torch.chunk", "torch.unbind", "torch.tensor_split"})
MUTATORS = ("append", "extend", "insert")


class StackCatRoundtrip(Rule):
    code = "SC103"
    name = "stack-cat-roundtrip"
    severity = "warning"  # the round trip computes the right tensor, only the long way
    message = "`cat` of tensors each unsqueezed at the cat's dim is `stack`"
    fixable = "safe"
    triggers = ("unsqueeze", "None]", "stack(")
    # A list reached through its name is decided by `finish`, with the file's mutating calls; the rest is the
    # statement's own, so the editor server keeps each statement's findings and part between edits.
    scope = "statement"
    gathered = ("_named",)
    docs = """
        ## What it does
        Finds two spellings of a simpler call: `torch.cat([t.unsqueeze(d) for t in ts], dim=d)` (also with a list
        of unsqueezed tensors, `t[None]`, or a list built so in a local name that nothing appends to), which is
        `torch.stack(ts, dim=d)`; and `torch.stack(xs, dim=d)` chained straight into a merge of its new dim
        (`.flatten(d, d + 1)`, or `.view(-1, ...)` / `.reshape(-1, ...)` that keeps the stacked tensors' other
        dims), which is `torch.cat(xs, dim=d)`.

        Not reported: stacking on a new last dim and flattening the others (`torch.stack([t, h, w],
        dim=-1).view(-1, 3)`, an interleave), an unsqueeze under a condition, a cat along another dim than the
        unsqueeze, a stacked tensor kept in a name (it may be used as such), and `torch.stack(xs).view(-1, D)` when
        nothing shows the stacked tensors are `(N, D)`: stacked vectors make it a no-op, stacked scalars a column.

        ## Why is this bad?
        The primer: "stack vs cat — the most common mix-up. stack adds a new dimension; cat extends an existing
        one", and "Picking the wrong one is one of the most common silent shape bugs." Adding a dim only to
        concatenate along it, or stacking only to merge the new dim away, hides which one was meant and costs an
        extra copy. `stack` also needs every tensor to have the same shape, so stacking per-batch outputs and
        flattening them crashes on a short last batch where `cat` just works.

        ## Example
        ```python
        frames = torch.cat([f.unsqueeze(0) for f in frames], dim=0)
        preds = torch.stack(batch_preds).flatten(0, 1)
        ```

        ## Use instead
        ```python
        frames = torch.stack(frames, dim=0)
        preds = torch.cat(batch_preds)
        ```

        ## Fix
        Safe, when the rewrite is provably the same: `torch.cat([t.unsqueeze(d) for t in ts], dim=d)` becomes
        `torch.stack(ts, dim=d)` when the comprehension is a plain `for t in ts` over a list or tuple with no `if`
        and unsqueezes the loop variable itself; a list of unsqueezed tensors loses the unsqueezes; `stack(...)`
        merged straight back becomes `cat(...)` with the same arguments. The file's spelling of `torch` is kept.
        Otherwise the finding comes without a fix.
    """
    VALID = [
        # timm / ViT: a class token joined to unsqueezed-free patch tokens
        """
        import torch
        tokens = torch.cat([cls_token.expand(B, -1, -1), x], dim=1)
        """,
        # only one of the tensors is unsqueezed: a real concatenation
        """
        import torch
        coords = torch.cat([boxes, scores.unsqueeze(1)], dim=1)
        """,
        # unsqueezed on one dim, concatenated along another: not a stack
        """
        import torch
        grid = torch.cat([row.unsqueeze(0) for row in rows], dim=1)
        """,
        # the unsqueeze is conditional
        """
        import torch
        out = torch.cat([t.unsqueeze(-1) if t.dim() == 1 else t for t in ts], dim=-1)
        """,
        # a new last dim, then the others flattened: an interleave, not a cat
        """
        import torch
        points = torch.stack([t, h, w], dim=-1).view(-1, 3)
        """,
        # the stack's new dim merged with the batch dim in front of it: interleaves, is not a cat
        """
        import torch
        pairs = torch.stack([left, right], dim=1).flatten(0, 1)
        """,
        # scalars stacked then given a unit dim: nothing is merged
        """
        import torch
        losses = torch.stack(step_losses).view(-1, 1)
        """,
        # per-sample vectors: `.view(-1, D)` may be a no-op, nothing shows a merge
        """
        import torch
        embeddings = torch.stack(vectors).view(-1, dim)
        """,
        # numpy's concatenate is not torch's
        """
        import numpy as np
        import torch
        batch = np.concatenate([a[None] for a in arrays], axis=0)
        """,
        # flattening the stacked tensors' own dims
        """
        import torch
        clips = torch.stack(frames, dim=1).flatten(2)
        """,
        # diffusers: the stacked batch is kept and also used flattened
        """
        import torch
        samples = torch.stack([sample1, sample2, sample3], dim=0)
        residual = model(samples.flatten(0, 1))
        """,
        # the list grows with tensors the rule can't see
        """
        import torch
        def depth(decoder, first, steps):
            sequence = [first.unsqueeze(1)]
            for step in steps:
                sequence.append(decoder(step))
            return torch.cat(sequence, dim=1)
        """,
        # one of two branches' lists
        """
        import torch
        def latents(videos, encode, per_item):
            if per_item:
                parts = [encode(videos)]
            else:
                parts = [encode(v).unsqueeze(0) for v in videos]
            return torch.cat(parts, dim=0)
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            frames = [load(path) for path in paths]
            video = torch.cat([f.unsqueeze(0) for f in frames], dim=0)
            """,
            fixed="""
            import torch
            frames = [load(path) for path in paths]
            video = torch.stack(frames, dim=0)
            """,
        ),
        Invalid(
            """
            import torch as th
            state = th.cat((h.unsqueeze(1), c[:, None]), 1)
            """,
            fixed="""
            import torch as th
            state = th.stack((h, c), 1)
            """,
        ),
        Invalid(
            """
            import torch
            preds = torch.stack(batch_preds).flatten(0, 1)
            """,
            fixed="""
            import torch
            preds = torch.cat(batch_preds)
            """,
        ),
        Invalid(
            """
            import torch
            def pair(a, b, B, D):
                return torch.stack([a.reshape(B, D), b.reshape(B, D)]).view(-1, D)
            """,
            fixed="""
            import torch
            def pair(a, b, B, D):
                return torch.cat([a.reshape(B, D), b.reshape(B, D)])
            """,
        ),
        # through a name: the list may be used elsewhere, so no fix
        """
        import torch
        def collate(batch):
            imgs = [item[0].unsqueeze(0) for item in batch]
            return torch.cat(imgs, dim=0)
        """,
        # a filter in the comprehension, or a call around the loop variable: reported, not fixed
        """
        import torch
        out = torch.cat([layer(s).unsqueeze(0) for s in x], dim=0)
        """,
        """
        import torch
        def merge(ts):
            return torch.cat([t.unsqueeze(0) for t in ts if t is not None])
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._named: list[tuple[cst.Call, str, cst.FunctionDef | None, str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        last = last_name(func)
        if last in ("cat", "concat", "concatenate"):
            if self.ctx.qualname(func) in CAT:
                self._cat(node)
        elif last in ("flatten", "view", "reshape"):
            self._merged_stack(node)

    # ------------------------------------------------------------------------------------ cat of unsqueezed

    def _cat(self, call: cst.Call) -> None:
        if any(arg.keyword is not None and arg.keyword.value not in ("tensors", "dim", "out") for arg in call.args):
            return
        tensors = argument(call, 0, "tensors")
        dim = argument(call, 1, "dim") or cst.Integer("0")
        if tensors is None:
            return
        source = tensors
        if type(tensors) is cst.Name:
            binding = self.ctx.binding(tensors)
            # The list must be the one built there: not one of several branches' lists.
            if binding is None or binding.kind != "assign" or self.ctx.reach(binding) != "always":
                return
            source = binding.value
        inline = source is tensors
        if type(source) is cst.ListComp:
            new_tensors = self._comprehension(source, dim)
        elif type(source) in (cst.List, cst.Tuple):
            new_tensors = self._literal(source, dim)
        else:
            return
        if new_tensors is None:
            return
        stack = self._renamed(call.func, "stack")
        fix = None
        if inline and stack is not None and new_tensors is not False:
            new = call.with_changes(func=stack, args=[call.args[0].with_changes(value=new_tensors), *call.args[1:]])
            fix = Fix("Use `stack`", ((call, new),))
        cat = self.ctx.code(call.func)
        spelled = self.ctx.code(stack) if stack is not None else "torch.stack"
        dim_code = self.ctx.code(dim)
        message = (f"`{cat}` of tensors each unsqueezed at `dim={dim_code}` is `{spelled}(..., dim={dim_code})`: "
                   "stack adds the new dim itself")
        if inline:
            self.report(call, message, fix)
        else:
            self._named.append((call, tensors.value, self.ctx.function, message))

    def finish(self) -> None:
        # A list reached through its name counts only if nothing appends to it: the appended tensors are unseen.
        for call, name, function, message in self._named:
            mutated = any(type(site.node.func.value) is cst.Name and site.node.func.value.value == name
                          and site.function is function
                          for method in MUTATORS for site in self.ctx.calls_to(method))
            if not mutated:
                self.report(call, message)

    def _comprehension(self, comp: cst.ListComp, dim: cst.BaseExpression
                       ) -> cst.BaseExpression | Literal[False] | None:
        """The tensors to stack for `[t.unsqueeze(d) for t in ts]`: `ts` when that is provably the same; False
        when it is a stack that can't be rewritten in place; None when it is no stack."""
        found = unsqueezed(self.ctx, comp.elt)
        if found is None:
            return None
        tensor, unsqueeze_dim = found
        targets = set()
        clause: cst.CompFor | None = comp.for_in
        while clause is not None:
            targets |= {n.value for n in self.ctx.walk(clause.target) if type(n) is cst.Name}
            clause = clause.inner_for_in
        bound_inside = type(unsqueeze_dim) is cst.Name and unsqueeze_dim.value in targets
        if bound_inside or not same_dim(self.ctx, unsqueeze_dim, dim):
            return None
        for_in = comp.for_in
        plain = (for_in.inner_for_in is None and not for_in.ifs and for_in.asynchronous is None
                 and type(for_in.target) is cst.Name and type(tensor) is cst.Name
                 and tensor.value == for_in.target.value)
        return for_in.iter if plain and self._is_sequence(for_in.iter) else False

    def _literal(self, sequence: cst.List | cst.Tuple, dim: cst.BaseExpression) -> cst.BaseExpression | None:
        elements = []
        for element in sequence.elements:
            found = unsqueezed(self.ctx, element.value) if type(element) is cst.Element else None
            if found is None or not same_dim(self.ctx, found[1], dim):
                return None
            elements.append(element.with_changes(value=found[0]))
        return sequence.with_changes(elements=elements) if elements else None

    def _is_sequence(self, expr: cst.BaseExpression) -> bool:
        """`expr` is certainly a list or a tuple: `torch.stack` rejects generators, dict views and tensors."""
        expr, _ = self.ctx.value_of(expr)
        if type(expr) in (cst.List, cst.Tuple, cst.ListComp):
            return True
        if type(expr) is not cst.Call:
            return False
        func = expr.func
        if type(func) is cst.Name and func.value in SEQUENCE_BUILTINS:
            return self.ctx.binding(func) is None
        if type(func) is cst.Attribute and func.attr.value in SEQUENCE_METHODS and self.ctx.qualname(func) is None:
            return not self.ctx.is_foreign(func.value)
        return self.ctx.qualname(func) in SEQUENCE_FUNCTIONS

    # ---------------------------------------------------------------------------------- stack merged back

    def _merged_stack(self, call: cst.Call) -> None:
        func = call.func
        if type(func) is cst.Attribute and type(func.value) is cst.Call:
            source, offset, method = func.value, 0, func.attr.value  # `stack(...).flatten(...)`
        elif last_name(func) == "flatten" and self.ctx.qualname(func) == "torch.flatten":
            source, offset, method = argument(call, 0, "input"), 1, "flatten"
        else:
            return
        # Only `stack(...)` chained straight into the merge: a stacked tensor kept in a name may be used as such.
        if type(source) is not cst.Call or last_name(source.func) != "stack":
            return
        if self.ctx.qualname(source.func) != STACK:
            return
        stack_dim = int_argument(source, 1, "dim", 0)
        if stack_dim is None or stack_dim < 0:
            return
        if method == "flatten":
            start = int_argument(call, offset, "start_dim", 0)
            end = int_argument(call, offset + 1, "end_dim", -1)
            if start != stack_dim or end != stack_dim + 1:
                return
        elif stack_dim != 0 or not self._keeps_element_dims(call, source):
            return
        cat = self._renamed(source.func, "cat")
        fix = Fix("Use `cat`", ((call, source.with_changes(func=cat)),)) if cat is not None else None
        stack = self.ctx.code(source.func)
        spelled = self.ctx.code(cat) if cat is not None else "torch.cat"
        self.report(call, f"`{stack}(...)` merged straight back along its new dim is `{spelled}(...)` with the same "
                          "arguments, which also takes tensors of different lengths (a short last batch)", fix)

    def _keeps_element_dims(self, view: cst.Call, stack: cst.Call) -> bool:
        """`stack(xs).view(-1, *rest)` where every `x` is declared with a shape `(n, *rest)`: the view merges the
        new dim with the first and keeps the others."""
        args = shape_arguments(view, "size" if view.func.attr.value == "view" else "shape")
        if not args or literal_int(args[0]) != -1:
            return False
        rest = [size_of(self.ctx, arg, None, no_dim_ref) for arg in args[1:]]
        if not rest or any(type(size) is not Size for size in rest):
            return False
        tensors = argument(stack, 0, "tensors")
        if type(tensors) not in (cst.List, cst.Tuple) or not tensors.elements:
            return False
        for element in tensors.elements:
            value = element.value
            shape = declared_shape(self.ctx, value, None) if type(value) is cst.Call else None
            if shape is None or len(shape) != len(args) or shape[1:] != rest:
                return False
        return True

    def _renamed(self, func: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
        """`func` (a spelling of torch.cat or torch.stack) with its last name replaced, in the file's spelling."""
        if type(func) is cst.Attribute:
            return func.with_changes(attr=cst.Name(name))
        spelling = self.ctx.spelling(f"torch.{name}")
        return cst.parse_expression(spelling) if spelling is not None else None
