"""SC501 unsafe-torch-load: `torch.load` that may unpickle arbitrary code from the checkpoint."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Fix, Invalid, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.rules._activations import with_keyword

LOADS = frozenset({"torch.load", "torch.serialization.load"})


class UnsafeTorchLoad(Rule):
    code = "SC501"
    name = "unsafe-torch-load"
    severity = "warning"  # a security hazard with untrusted files, not a wrong result
    message = ("`torch.load` without `weights_only=True` runs arbitrary pickled code on torch < 2.6: pass "
               "`weights_only=True`")
    fixable = "unsafe"
    default = False
    triggers = ("load(",)
    docs = """
        ## What it does
        Finds `torch.load(...)` without `weights_only=True`: with the argument left out, and with
        `weights_only=False` written out. Off by default; enable it with `--select SC501` or in the
        configuration. A `weights_only=` computed at run time, or arguments passed through `**kwargs`, are
        not reported.

        ## Why is this bad?
        A checkpoint is a pickle, and unpickling runs whatever code the file names: a downloaded `.pth` can
        execute anything on the machine that loads it. `weights_only=True` restricts unpickling to tensors,
        primitive types and dicts. Since torch 2.6 `weights_only` defaults to True, so the remaining risks are
        code that passes `weights_only=False`, and code without the argument that still runs on torch < 2.6,
        where the default is the unsafe full unpickler. The primer: "Always pass weights_only=True to
        torch.load() in modern PyTorch (1.13+). This prevents arbitrary code execution from untrusted
        checkpoint files. If you need to load optimizer state or other non-tensor data, use
        weights_only=False only with files you trust."

        ## Example
        ```python
        state = torch.load("model.pth")
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
        ```

        ## Use instead
        ```python
        state = torch.load("model.pth", weights_only=True)
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
        ```

        ## Fix
        Unsafe: adds `weights_only=True` where the argument is missing. Loading a checkpoint that pickles
        whole models or custom classes then fails until those classes are allowed with
        `torch.serialization.add_safe_globals` or the file is re-saved as a `state_dict`. An explicit
        `weights_only=False` is reported only: the author chose it, and only they know the file is trusted.
    """
    VALID = [
        """
        import torch
        model.load_state_dict(torch.load("model_weights.pth", weights_only=True))
        """,
        """
        import torch
        ckpt = torch.load(ckpt_path, map_location=device, weights_only=True)
        """,
        """
        import torch
        def load(path, **kwargs):
            return torch.load(path, **kwargs)
        """,
        """
        import torch
        state = torch.load(path, map_location="cpu", weights_only=args.weights_only)
        """,
        """
        import torch
        import numpy as np
        import pickle
        arr = np.load("features.npy")
        meta = pickle.load(open("meta.pkl", "rb"))
        hub_model = torch.hub.load("pytorch/vision", "resnet18")
        """,
        """
        import torch
        from safetensors.torch import load_file
        state = load_file("model.safetensors")
        """,
    ]
    INVALID = [
        Invalid(
            """
            import torch
            model.load_state_dict(torch.load("model.pth"))
            """,
            fixed="""
            import torch
            model.load_state_dict(torch.load("model.pth", weights_only=True))
            """,
        ),
        Invalid(
            """
            import torch as th
            checkpoint = th.load(
                args.resume,
                map_location="cpu",
            )
            """,
            fixed="""
            import torch as th
            checkpoint = th.load(
                args.resume,
                map_location="cpu",
                weights_only=True,
            )
            """,
        ),
        Invalid(
            """
            from torch import load
            state = load(path, map_location=lambda storage, loc: storage)
            """,
            fixed="""
            from torch import load
            state = load(path, map_location=lambda storage, loc: storage, weights_only=True)
            """,
        ),
        """
        import torch
        ckpt = torch.load(path, map_location="cpu", weights_only=False)
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if last_name(func) != "load" or self.ctx.qualname(func) not in LOADS:
            return
        for arg in node.args:
            if arg.star == "**":
                return  # `weights_only` may be among them
            if arg.keyword is not None and arg.keyword.value == "weights_only":
                value = arg.value
                if type(value) is cst.Name and value.value == "False":
                    self.report(node, "`torch.load(..., weights_only=False)` runs arbitrary pickled code from the "
                                      "checkpoint: load only files you trust, or save a `state_dict` and use "
                                      "`weights_only=True`")
                return
        fix = Fix("Add `weights_only=True`", ((node, with_keyword(node, "weights_only", "True")),), "unsafe")
        self.report(node, fix=fix)
