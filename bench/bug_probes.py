"""Run one bug-corpus program under torch and report what happened: its exception, its warnings, and the symptoms
that the probes observed (silent bugs: a broadcast that blew a tensor up, a step on stale gradients, ...).

    python bench/bug_probes.py [--probe NAME ...] [--typecheck] --out RESULT.json PROGRAM

Writes one JSON object to RESULT.json (the program's own output goes to stdout and stderr as usual). The program runs as `__main__` with its own folder first on `sys.path` (as
`python PROGRAM` would), from a scratch working folder, on CPU, seeded. Used by bench/verify_bugs.py.

Each probe watches torch, not the program's text, so a symptom is a fact of the run:
- broadcast-blowup: an elementwise op whose result has more elements than either operand ((N, 1) - (N,)).
- nonfinite / nan: an op that made inf or nan out of finite inputs / any op other than an allocation whose result
  holds nan (uninitialised memory is filled with nan, `torch.utils.deterministic.fill_uninitialized_memory`).
- probabilities-into-logits-loss: a softmax or sigmoid output given to a loss that applies (log-)softmax or sigmoid
  itself (`cross_entropy`, `nll_loss`, `binary_cross_entropy_with_logits`).
- stale-grad: an optimizer stepped on gradients that a backward pass added onto the gradients of its previous step.
- step-without-grad: an optimizer stepped while every one of its parameters had no gradient or a zero one.
- grads-discarded: gradients a backward pass gave an optimizer's parameters were reset before that optimizer
  stepped, with no other optimizer stepping in between (accumulation that resets every micro-batch).
- eval-forward-with-grad: a module in eval mode ran with autograd recording (its output requires grad).
- eval-backward: a backward pass went through a dropout or batch-norm layer that ran in eval mode.
- train-mode-inference: a dropout or batch-norm layer ran in training mode under no_grad / inference_mode.
- graphs-kept-alive: at a backward pass, five or more graphs of earlier backward passes were still referenced.
- forward-bypasses-hooks: a module's `forward` ran without `Module.__call__` (hooks skipped).
- unregistered-submodule: a module with parameters ran inside another module's forward without being one of its
  submodules (it is not in the parent's `.parameters()`).
- same-shuffle-every-epoch: a shuffling DistributedSampler gave the same order in two consecutive epochs.
- clip-scaled-grads: gradients were clipped after `GradScaler.scale(...)` and before `unscale_`.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import runpy
import sys
import tempfile
import traceback
import types
import warnings
import weakref
from pathlib import Path

import torch
import torch.utils.data.distributed
from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
from torch.overrides import TorchFunctionMode

PROGRAM_DIR: Path | None = None
SYMPTOMS: list[dict] = []


def program_frames() -> list[tuple[str, int, str]]:
    """The frames of the running program's own files, outermost first: (file, line, its text)."""
    frames = []
    for frame in traceback.extract_stack():
        path = Path(frame.filename)
        if PROGRAM_DIR is not None and PROGRAM_DIR in path.parents:
            frames.append((str(path.relative_to(PROGRAM_DIR)), frame.lineno, (frame.line or "").strip()))
    return frames


def symptom(name: str, detail: str) -> None:
    """Record a symptom at the program's innermost frame, with the program's call stack that led there."""
    frames = program_frames()
    file, line, text = frames[-1] if frames else ("?", 0, "")
    if any((s["name"], s["file"], s["line"]) == (name, file, line) for s in SYMPTOMS):
        return
    stack = [[f, n] for f, n, _ in frames]
    SYMPTOMS.append({"name": name, "file": file, "line": line, "text": text, "detail": detail, "stack": stack})


# --- probes on torch functions (a TorchFunctionMode sees every op, method and operator) ---

ELEMENTWISE = {
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow", "eq", "ne", "lt", "le", "gt",
    "ge", "maximum", "minimum", "atan2", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
    "__truediv__", "__rtruediv__", "__pow__", "__rpow__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__",
    "__and__", "__or__", "__xor__",
}
PROBABILITIES = {"softmax", "sigmoid"}
LOGIT_LOSSES = {"cross_entropy", "nll_loss", "binary_cross_entropy_with_logits"}
# Allocations hold nan under fill_uninitialized_memory until something writes them (as every layer's init does):
# the symptom is nan coming out of a computation.
ALLOCATIONS = {"empty", "empty_like", "new_empty", "empty_strided"}


def tensors(values) -> list[torch.Tensor]:
    return [v for v in values if isinstance(v, torch.Tensor)]


class OpProbe(TorchFunctionMode):
    def __init__(self, probes: set[str]) -> None:
        super().__init__()
        self.probes = probes
        self.probabilities: dict[int, weakref.ref] = {}  # by id: a tensor's `==` is elementwise

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        if "probabilities-into-logits-loss" in self.probes and name in LOGIT_LOSSES:
            given = args[0] if args else kwargs.get("input")
            made = self.probabilities.get(id(given))
            if isinstance(given, torch.Tensor) and made is not None and made() is given:
                symptom("probabilities-into-logits-loss", f"{name} got the output of a softmax/sigmoid")
        result = func(*args, **kwargs)
        if not isinstance(result, torch.Tensor):
            return result
        if name in PROBABILITIES:
            self.probabilities[id(result)] = weakref.ref(result)
        if "broadcast-blowup" in self.probes and name in ELEMENTWISE:
            operands = tensors(args[:2])
            if len(operands) == 2 and all(t.numel() > 1 for t in operands):
                if result.numel() > max(t.numel() for t in operands):
                    a, b = (tuple(t.shape) for t in operands)
                    symptom("broadcast-blowup", f"{name}: {a} with {b} gave {tuple(result.shape)}")
        if result.is_floating_point() and ({"nonfinite", "nan"} & self.probes):
            inputs = [t for t in tensors(list(args) + list(kwargs.values())) if t.is_floating_point()]
            if "nan" in self.probes and name not in ALLOCATIONS and torch.isnan(result).any():
                symptom("nan", f"{name} gave nan")
            finite_in = all(bool(torch.isfinite(t).all()) for t in inputs)
            if "nonfinite" in self.probes and finite_in and not bool(torch.isfinite(result).all()):
                symptom("nonfinite", f"{name} made inf/nan from finite inputs")
        return result


# --- probes on optimizers, backward passes and modules (hooks) ---

class TrainingProbe:
    """Gradient bookkeeping per parameter, from optimizer step hooks and a wrapped `torch.autograd.backward`.

    Parameters are keyed by id (a tensor's `==` is elementwise, so tensors cannot be dict keys by value); the
    optimizers hold them for the whole run, so an id is not reused.
    """

    def __init__(self, probes: set[str]) -> None:
        self.probes = probes
        self.stepped: dict[int, bool] = {}  # stepped while holding a gradient
        self.contaminated: dict[int, bool] = {}  # a backward pass added onto a gradient already stepped with
        self.pending: dict[int, int] = {}  # got a gradient when the step count was this, not stepped since
        self.optimizers: weakref.WeakSet = weakref.WeakSet()
        self.steps = 0
        self.roots: list[weakref.ref] = []
        self.reported_alive = False

    class Sentinel:
        """Stored in a graph root's metadata: alive exactly as long as that graph is referenced."""

    @staticmethod
    def params(optimizer) -> list[torch.Tensor]:
        return [p for group in optimizer.param_groups for p in group["params"]]

    @staticmethod
    def has_grad(p: torch.Tensor) -> bool:
        return p.grad is not None and bool(p.grad.detach().abs().sum() > 0)

    def all_params(self) -> list[torch.Tensor]:
        return [p for opt in list(self.optimizers) for p in self.params(opt)]

    def before_step(self, optimizer, args, kwargs) -> None:
        self.optimizers.add(optimizer)
        params = self.params(optimizer)
        if "step-without-grad" in self.probes and params and not any(self.has_grad(p) for p in params):
            symptom("step-without-grad", f"{type(optimizer).__name__}.step() with no gradient on any parameter")
        if "stale-grad" in self.probes and any(self.contaminated.get(id(p)) for p in params):
            symptom("stale-grad", "the gradients include those of the previous step: they were never reset")

    def after_step(self, optimizer, args, kwargs) -> None:
        self.steps += 1
        for p in self.params(optimizer):
            self.stepped[id(p)] = self.has_grad(p)
            self.contaminated[id(p)] = False
            self.pending.pop(id(p), None)

    def before_backward(self, roots) -> None:
        for p in self.all_params():
            key, stale = id(p), self.has_grad(p)
            if self.stepped.get(key):
                self.contaminated[key] = stale
                self.stepped[key] = False
            elif not stale and self.contaminated.get(key):
                self.contaminated[key] = False
            seen = self.pending.get(key)
            if "grads-discarded" in self.probes and seen is not None and not stale and seen == self.steps:
                symptom("grads-discarded", "gradients of an earlier backward pass were reset before any step")
                self.pending.pop(key, None)
        if "eval-backward" in self.probes and any(self.through_eval(r) for r in roots):
            symptom("eval-backward", "backward through a dropout/batch-norm layer that ran in eval mode")
        if "graphs-kept-alive" in self.probes:
            self.count_alive(roots)

    def after_backward(self) -> None:
        for p in self.all_params():
            if p.grad is not None:
                self.pending.setdefault(id(p), self.steps)

    @staticmethod
    def through_eval(root: torch.Tensor) -> bool:
        stack, seen = [root.grad_fn], set()
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if node.metadata.get("bug_probe_eval"):
                return True
            stack.extend(n for n, _ in node.next_functions)
        return False

    def count_alive(self, roots) -> None:
        alive = sum(1 for ref in self.roots if ref() is not None)
        if alive >= 5 and not self.reported_alive:
            self.reported_alive = True
            symptom("graphs-kept-alive", f"{alive} graphs of earlier backward passes are still referenced")
        for root in roots:
            if root.grad_fn is not None and "bug_probe_root" not in root.grad_fn.metadata:
                sentinel = self.Sentinel()
                root.grad_fn.metadata["bug_probe_root"] = sentinel
                self.roots.append(weakref.ref(sentinel))


def mode_sensitive(module: torch.nn.Module) -> bool:
    if isinstance(module, torch.nn.modules.dropout._DropoutNd):
        return module.p > 0
    return isinstance(module, torch.nn.modules.batchnorm._BatchNorm)


def install_module_probes(probes: set[str]) -> None:
    calling: list[torch.nn.Module] = []

    def pre_hook(module, args):
        if "unregistered-submodule" in probes and calling and any(True for _ in module.parameters()):
            parent = calling[-1]
            if not any(m is module for m in parent.modules()):
                symptom("unregistered-submodule", f"{type(module).__name__} ran inside "
                        f"{type(parent).__name__}.forward but is not one of its submodules")
        calling.append(module)

    def hook(module, args, output):
        if calling and calling[-1] is module:
            calling.pop()
        out = output[0] if isinstance(output, tuple) and output else output
        if not isinstance(out, torch.Tensor):
            return
        if not module.training and torch.is_grad_enabled() and out.requires_grad:
            if "eval-forward-with-grad" in probes:
                symptom("eval-forward-with-grad", f"{type(module).__name__} in eval mode built a graph")
            if mode_sensitive(module) and out.grad_fn is not None:
                out.grad_fn.metadata["bug_probe_eval"] = True
        if module.training and not torch.is_grad_enabled() and mode_sensitive(module):
            if "train-mode-inference" in probes:
                symptom("train-mode-inference", f"{type(module).__name__} in training mode under no_grad")

    torch.nn.modules.module.register_module_forward_pre_hook(pre_hook)
    torch.nn.modules.module.register_module_forward_hook(hook)

    if "forward-bypasses-hooks" in probes:
        depth: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

        def wrap(forward):
            def checked_forward(self, *args, **kwargs):
                if not (calling and calling[-1] is self) and not depth.get(self):
                    symptom("forward-bypasses-hooks", f"{type(self).__name__}.forward() called directly")
                depth[self] = depth.get(self, 0) + 1
                try:
                    return forward(self, *args, **kwargs)
                finally:
                    depth[self] -= 1
            return checked_forward

        def init_subclass(cls, **kwargs):
            if "forward" in cls.__dict__:
                cls.forward = wrap(cls.__dict__["forward"])

        torch.nn.Module.__init_subclass__ = classmethod(init_subclass)


def install_training_probes(probes: set[str]) -> TrainingProbe:
    probe = TrainingProbe(probes)
    real_init = torch.optim.Optimizer.__init__

    def optimizer_init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        probe.optimizers.add(self)

    torch.optim.Optimizer.__init__ = optimizer_init
    register_optimizer_step_pre_hook(probe.before_step)
    register_optimizer_step_post_hook(probe.after_step)
    real_backward = torch.autograd.backward

    def backward(tensors, *args, **kwargs):
        roots = [tensors] if isinstance(tensors, torch.Tensor) else list(tensors)
        probe.before_backward([r for r in roots if isinstance(r, torch.Tensor)])
        result = real_backward(tensors, *args, **kwargs)
        probe.after_backward()
        return result

    torch.autograd.backward = backward

    sampler_cls = torch.utils.data.distributed.DistributedSampler
    real_iter = sampler_cls.__iter__
    orders: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def sampler_iter(self):
        order = list(real_iter(self))
        if "same-shuffle-every-epoch" in probes and self.shuffle and orders.get(self) == order:
            symptom("same-shuffle-every-epoch", "DistributedSampler gave the previous epoch's order again")
        orders[self] = order
        return iter(order)

    sampler_cls.__iter__ = sampler_iter

    scaled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # scaler -> scaled and not unscaled
    scaler_cls = torch.amp.GradScaler
    real_scale, real_unscale, real_update = scaler_cls.scale, scaler_cls.unscale_, scaler_cls.update

    def scale(self, outputs):
        if self.is_enabled():
            scaled[self] = True
        return real_scale(self, outputs)

    def unscale_(self, optimizer):
        scaled[self] = False
        return real_unscale(self, optimizer)

    def update(self, new_scale=None):
        scaled[self] = False
        return real_update(self, new_scale)

    scaler_cls.scale, scaler_cls.unscale_, scaler_cls.update = scale, unscale_, update
    real_clip = torch.nn.utils.clip_grad_norm_

    def clip_grad_norm_(parameters, *args, **kwargs):
        if "clip-scaled-grads" in probes and any(scaled.values()):
            symptom("clip-scaled-grads", "gradients clipped while still multiplied by the GradScaler's scale")
        return real_clip(parameters, *args, **kwargs)

    torch.nn.utils.clip_grad_norm_ = clip_grad_norm_
    torch.nn.utils.clip_grad.clip_grad_norm_ = clip_grad_norm_
    return probe


# --- jaxtyping checks, for annotation bugs ---

class Typechecked(ast.NodeTransformer):
    """Decorates every annotated function with jaxtyping + beartype, and checks annotated local assignments."""

    DECORATOR = "__import__('jaxtyping').jaxtyped(typechecker=__import__('beartype').beartype)"

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        annotated = node.returns is not None or any(a.annotation is not None for a in node.args.args)
        if annotated:
            decorator = ast.parse(self.DECORATOR, mode="eval").body
            node.decorator_list.append(ast.copy_location(decorator, node))
        return node

    def visit_AnnAssign(self, node):
        if node.value is None or not isinstance(node.target, ast.Name):
            return node
        # Only annotations that are classes (jaxtyping's are) can be given to isinstance; `Optional[int]` is not.
        check = ast.parse(
            f"assert not isinstance(__ann__, type) or isinstance({node.target.id}, __ann__), "
            f"'local variable {node.target.id} does not match its annotation'"
        ).body[0]
        check.test.values[0].operand.args[0] = node.annotation
        check.test.values[1].args[1] = node.annotation
        for sub in ast.walk(check):
            ast.copy_location(sub, node)
        return [node, check]


def run_program(program: Path, typecheck: bool) -> None:
    if not typecheck:
        runpy.run_path(str(program), run_name="__main__")
        return
    tree = Typechecked().visit(ast.parse(program.read_text(), filename=str(program)))
    ast.fix_missing_locations(tree)
    module = types.ModuleType("__main__")
    module.__file__ = str(program)
    sys.modules["__main__"] = module
    exec(compile(tree, str(program), "exec"), module.__dict__)


def run(program: Path, probes: set[str], typecheck: bool) -> dict:
    """Run one program under the probes, in this process (which it changes for good: call it in a fresh one)."""
    global PROGRAM_DIR
    program = program.resolve()
    PROGRAM_DIR = program.parent
    torch.manual_seed(0)
    torch.set_num_threads(1)
    if "nan" in probes:
        torch.utils.deterministic.fill_uninitialized_memory = True
        torch.use_deterministic_algorithms(True)
    install_module_probes(probes)
    install_training_probes(probes)
    op_probes = probes & {"broadcast-blowup", "nonfinite", "nan", "probabilities-into-logits-loss"}

    sys.path.insert(0, str(PROGRAM_DIR))
    sys.argv = [str(program)]
    # The program frames of the failure (outermost first): the traceback of its exception, or the stack of each
    # warning it gave; verify_bugs.py checks that a case's marked line is on that chain.
    result: dict = {"exception": None, "exception_stack": [], "warnings": [], "warning_stacks": {}}
    with tempfile.TemporaryDirectory() as scratch, warnings.catch_warnings():
        warnings.simplefilter("always")

        def record_warning(message, category, filename, lineno, file=None, line=None):
            text = f"{category.__name__}: {message}"
            if text not in result["warning_stacks"]:
                result["warnings"].append(text)
                result["warning_stacks"][text] = [[f, n] for f, n, _ in program_frames()]

        warnings.showwarning = record_warning
        os.chdir(scratch)
        try:
            if op_probes:
                with OpProbe(op_probes):
                    run_program(program, typecheck)
            else:
                run_program(program, typecheck)
        except SystemExit as exit_:
            if exit_.code not in (None, 0):
                result["exception"] = f"SystemExit: {exit_.code}"
        except BaseException as error:  # noqa: BLE001 - the program's own failure is the result
            result["exception"] = f"{type(error).__name__}: {error}"
            result["exception_stack"] = [
                [str(Path(f.filename).relative_to(PROGRAM_DIR)), f.lineno]
                for f in traceback.extract_tb(error.__traceback__)
                if PROGRAM_DIR in Path(f.filename).parents
            ]
    result["symptoms"] = SYMPTOMS
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program", type=Path)
    parser.add_argument("--probe", action="append", default=[], help="a symptom to watch for (repeatable)")
    parser.add_argument("--typecheck", action="store_true", help="check jaxtyping annotations while it runs")
    parser.add_argument("--out", type=Path, required=True, help="where to write the JSON result")
    args = parser.parse_args()
    out = args.out.resolve()
    result = run(args.program, set(args.probe), args.typecheck)
    out.write_text(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
