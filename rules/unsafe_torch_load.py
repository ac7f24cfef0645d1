"""SC501 unsafe-torch-load: `torch.load` that may unpickle arbitrary code from the checkpoint."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.syntax import last_name
from shapecheck.shapes.activations import construction_of, instance_class, is_torch_module_class, with_keyword

LOADS = frozenset({"torch.load", "torch.serialization.load"})
SAVES = frozenset({"torch.save", "torch.serialization.save"})
# The first torch whose `torch.load` defaults to `weights_only=True`.
SAFE_DEFAULT = (2, 6)
_ADVICE = ("loading it runs pickled code, and with `weights_only=True` (the default since torch 2.6) the load fails: "
           "save `{model}.state_dict()` instead and load it with "
           "`{model}.load_state_dict(torch.load(path, weights_only=True))`")
WHOLE_MODULE_SAVED = "this file saves a whole module (`torch.save({model}, ...)`): " + _ADVICE
WHOLE_MODULE_LOADED = "`torch.load` gives a whole module here (`{model}` is used as one): " + _ADVICE
# Calls that only a module answers: the loaded object is a pickled `nn.Module`, not a state_dict or a dict.
_MODULE_METHODS = frozenset({"eval", "train", "parameters", "named_parameters", "modules", "children", "forward",
                             "zero_grad", "named_modules"})


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

        It reads the torch requirement of the project around the file (`pyproject.toml`, `requirements*.txt`,
        `setup.cfg`, from the file's folder up to the project root): where torch >= 2.6 is required, a load
        without the argument is already safe and is not reported. A checkpoint that is a whole pickled module
        (the file does `torch.save(model, path)`, or the loaded object is used as a module: `model.eval()`,
        `model(x)`) is reported on every version with what to do instead: adding `weights_only=True` would make
        that load fail, so save and load the `state_dict`.

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
        torch.save(model, "model.pt")
        model = torch.load("model.pt")
        ```

        ## Use instead
        ```python
        state = torch.load("model.pth", weights_only=True)
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
        torch.save(model.state_dict(), "model.pt")
        model.load_state_dict(torch.load("model.pt", weights_only=True))
        ```

        ## Fix
        Unsafe: adds `weights_only=True` where the argument is missing. Loading a checkpoint that pickles
        whole models or custom classes then fails until those classes are allowed with
        `torch.serialization.add_safe_globals` or the file is re-saved as a `state_dict`. An explicit
        `weights_only=False` is reported only: the author chose it, and only they know the file is trusted.
        A whole-module checkpoint gets no fix: it needs the `state_dict` change above.
    """
    VALID = [
        """
        import torch
        import torch.nn as nn
        # the state_dict is saved, and a checkpoint dict is loaded and read, not used as a module
        model = nn.Linear(4, 1)
        torch.save(model.state_dict(), "model.pt")
        model.load_state_dict(torch.load("model.pt", weights_only=True))
        ckpt = torch.load("ckpt.pt", weights_only=True)
        model.load_state_dict(ckpt["model"])
        model.eval()
        """,
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
            import torch.nn as nn
            net = nn.Linear(1, 1)
            torch.save(net, "net.pkl")
            torch.save(net.state_dict(), "net_params.pkl")
            net.load_state_dict(torch.load("net_params.pkl"))
            """,
            fixed="""
            import torch
            import torch.nn as nn
            net = nn.Linear(1, 1)
            torch.save(net, "net.pkl")
            torch.save(net.state_dict(), "net_params.pkl")
            net.load_state_dict(torch.load("net_params.pkl", weights_only=True))
            """,
        ),
        """
        import torch
        import torch.nn as nn
        model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        torch.save(model, "model.pt")
        restored = torch.load("model.pt")
        """,
        """
        import torch
        model = torch.load(args.checkpoint, map_location=device)
        model.eval()
        """,
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

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._loads: list[cst.Call] = []  # loads without `weights_only`, decided in `finish`
        self._saved_module: cst.Call | None = None  # a `torch.save(model, path)` of a whole module
        self._used_as_module: dict[int, str] = {}  # id(load) -> the name whose module methods are called
        self._state_dicts: set[int] = set()  # id() of loads handed to `load_state_dict`

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = last_name(func)
        if self._loads:
            self._note_module_use(func)
        if name == "save" and self.ctx.qualname(func) in SAVES:
            if self._saved_module is None and node.args and self._is_module(node.args[0].value):
                self._saved_module = node
            return
        if name != "load" or self.ctx.qualname(func) not in LOADS:
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
        self._loads.append(node)
        ancestors = self.ctx.ancestors
        outer = ancestors[-3] if len(ancestors) >= 3 and type(ancestors[-2]) is cst.Arg else None
        if type(outer) is cst.Call and last_name(outer.func) == "load_state_dict":
            self._state_dicts.add(id(node))  # `model.load_state_dict(torch.load(path))`: a state_dict file

    def _note_module_use(self, func: cst.BaseExpression) -> None:
        """`model = torch.load(path)` then `model.eval()` or `model(x)`: the checkpoint is a whole module."""
        receiver = func.value if type(func) is cst.Attribute and func.attr.value in _MODULE_METHODS else func
        if type(receiver) is not cst.Name:
            return
        value, _ = self.ctx.value_of(receiver)
        if type(value) is cst.Call and any(value is load for load in self._loads):
            self._used_as_module[id(value)] = receiver.value

    def _is_module(self, expr: cst.BaseExpression) -> bool:
        """`model` built from an `nn.Module` class of this file or of torch: a whole module, not its state_dict."""
        class_def = instance_class(self.ctx, expr)
        if class_def is not None:
            return is_torch_module_class(self.ctx, class_def)
        construction, _ = construction_of(self.ctx, expr)
        qualname = None if construction is None else self.ctx.qualname(construction.func)
        return qualname is not None and qualname.startswith(("torch.nn.", "torchvision.models."))

    def finish(self) -> None:
        if not self._loads:
            return
        minimum = self.ctx.minimum_torch
        safe_default = minimum is not None and minimum >= SAFE_DEFAULT
        saved = None if self._saved_module is None else self.ctx.code(self._saved_module.args[0].value)
        for node in self._loads:
            model = self._used_as_module.get(id(node), None if id(node) in self._state_dicts else saved)
            if model is not None:
                # `weights_only=True` (the fix, and the default since 2.6) makes this load fail: say what to do.
                self.report(node, (WHOLE_MODULE_SAVED if model == saved else WHOLE_MODULE_LOADED).format(model=model))
            elif not safe_default:  # on torch >= 2.6 a load without the argument is already safe
                fix = Fix("Add `weights_only=True`", ((node, with_keyword(node, "weights_only", "True")),), "unsafe")
                self.report(node, fix=fix)
