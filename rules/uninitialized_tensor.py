"""SC401 uninitialized-tensor: `torch.Tensor(3)` / `torch.FloatTensor(n)` with sizes, never initialized."""

from __future__ import annotations

import re
from collections.abc import Callable


import libcst as cst

from shapecheck.engine import Context, Fix, Invalid, Rule
from shapecheck.engine.context import Binding
from shapecheck.engine.records import record
from shapecheck.engine.syntax import dotted_name, is_false, keyword_arg, last_name, new_keyword_arg, param_annotation
from shapecheck.objects.callers import every_call_passes
from shapecheck.objects.project import importers
from shapecheck.objects.stored import every_construction_passes
from shapecheck.shapes.activations import construction_of
from shapecheck.objects.torch_layers import torch_layer
from shapecheck.objects.tensor_facts import is_builtin_call, is_int, positional, string_value

# Legacy constructors: with integer arguments they allocate that shape without writing it.
_DTYPE_OF = {"Tensor": None, "FloatTensor": "float", "DoubleTensor": "double", "HalfTensor": "half",
             "BFloat16Tensor": "bfloat16", "ByteTensor": "uint8", "CharTensor": "int8", "ShortTensor": "short",
             "IntTensor": "int", "LongTensor": "long", "BoolTensor": "bool"}
CONSTRUCTORS = frozenset({f"torch.{name}" for name in _DTYPE_OF} | {f"torch.cuda.{name}" for name in _DTYPE_OF
                                                                     if name != "Tensor"})
_PARAMETER = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.nn.Buffer",
                        "torch.nn.parameter.Buffer", "torch.autograd.Variable"})
# Functions that only read their tensor arguments (except `out=`).
_PURE_MODULES = frozenset({"torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft"})
# In-place methods that write no values.
_NOT_WRITING = frozenset({"requires_grad_", "resize_", "resize_as_", "share_memory_", "detach_", "retain_grad_"})
# In-place methods whose result depends on the old values: garbage in, garbage out (`acc.add_(x)` is `acc += x`).
_READING = frozenset({
    "add_", "sub_", "mul_", "div_", "true_divide_", "floor_divide_", "pow_", "neg_", "abs_", "exp_", "log_",
    "sqrt_", "rsqrt_", "sigmoid_", "tanh_", "relu_", "clamp_", "clamp_min_", "clamp_max_", "clip_", "addmm_",
    "addmv_", "addr_", "addbmm_", "baddbmm_", "addcmul_", "addcdiv_", "lerp_", "fmod_", "remainder_", "round_",
    "floor_", "ceil_", "sign_", "cumsum_", "index_add_", "scatter_add_", "t_", "transpose_", "squeeze_",
    "unsqueeze_", "reciprocal_", "square_",
})
# Methods whose result is a new tensor or a Python value, never a view: what they are handed to can't write the
# tensor they read.
_FRESH = frozenset({"sum", "mean", "std", "var", "norm", "prod", "median", "max", "min", "amax", "amin", "argmax",
                    "argmin", "any", "all", "item", "tolist", "clone"})
# Builtins that read their arguments and write none of them.
_READING_BUILTINS = ("print", "len", "str", "repr", "format", "float", "int", "bool", "round", "abs", "min", "max",
                     "sum", "isinstance", "id", "hash", "type")
# Torch functions whose result keeps no values of a tensor argument: a shape or a dtype is all they read.
_SHAPE_ONLY = frozenset({"numel", "is_tensor", "is_floating_point", "is_complex", "is_nonzero", "result_type"})

_MESSAGE = ("`{call}(...)` with sizes allocates uninitialized memory: use `torch.tensor(...)` for a value or "
            "`torch.empty(...)` for a buffer you fill")

_EMPTY_MESSAGE = ("`{call}(...)` allocates uninitialized memory, and nothing in this file initializes the parameter "
                  "it becomes: initialize it (`nn.init.normal_(...)`, `nn.init.kaiming_uniform_(...)`) or use "
                  "`torch.zeros` / `torch.randn`")

_BUFFER_MESSAGE = ("`{call}(...)` allocates uninitialized memory, and the loop that fills it starts past the first "
                   "row, which no statement writes: those rows keep garbage; write them, or use `torch.zeros`")

_SAFE_FIX_MESSAGE = "Use `torch.tensor(...)`: the literal is a value, not a size"

# ("local", id(function), name), ("attr", id(class), attribute), ("dotted", 0, "module.attribute") or
# ("returns", 0, function name): what a function of this file returns, followed to its call sites.
Key = tuple[str, int, str]


@record
class _Allocation:
    node: cst.Call
    keys: set[Key]
    class_id: int | None
    fix: Fix | None
    # `torch.Tensor(3)`: one integer literal, the classic slip for the value 3. Its uses decide the fix.
    literal: int | None = None
    used_as_number: bool | None = None  # None: no use seen yet
    # `torch.Tensor(n)` with `n` a parameter: a size only when the file's calls of the function pass ints.
    size_parameter: tuple[cst.FunctionDef, str] | None = None
    empty: bool = False  # `nn.Parameter(torch.empty(n, d))`: every argument is a size
    buffer: bool = False  # a plain `torch.empty(T, B, H)`: reported only when a loop leaves its first rows
    rank: int | None = None  # its number of dimensions, when the call spells each size


# A layer ported from Keras with optional initializers: `%s` builds it in a model's constructor.
_OPTIONAL_INITIALIZERS = """
        import torch
        import torch.nn as nn
        class Dense(nn.Module):
            def __init__(self, in_features, out_features, kernel_initializer=None, bias_initializer=None):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(out_features, in_features))
                self.bias = nn.Parameter(torch.empty(out_features))
                if kernel_initializer is not None:
                    kernel_initializer(self.weight)
                if bias_initializer is not None:
                    bias_initializer(self.bias)
            def forward(self, x):
                return x @ self.weight.t() + self.bias
        class Head(nn.Module):
            def __init__(self, dim, n_classes):
                super().__init__()
                self.fc = %s
            def forward(self, x):
                return self.fc(x)
        """


class UninitializedTensor(Rule):
    code = "SC401"
    name = "uninitialized-tensor"
    severity = "error"  # the tensor holds uninitialised memory
    message = _MESSAGE.format(call="torch.Tensor")
    fixable = "safe"
    triggers = ("Tensor(", "empty(")
    # What the visits of a top-level statement see (allocations, writes, aliases, reads) is gathered as events that
    # depend only on that statement and the names it reads; `finish` replays them in order, deciding with the
    # whole file which reads and aliases reach an allocation.
    scope = "statement"
    gathered = ("_events",)
    docs = """
        ## What it does
        Finds the legacy constructors `torch.Tensor(...)`, `torch.FloatTensor(...)`, `torch.LongTensor(...)`
        (and the other typed ones) called with integer sizes (literals, `len(...)`, `x.size(i)`, `x.shape[i]`,
        names bound to ints, or two or more arguments) whose result is never initialized: not chained to
        `.uniform_()` / `.normal_()` / `.fill_()` / `.zero_()`, not passed to an `nn.init.*_` function, and not
        written later (an in-place method, `out=`, `x[...] = ...`, `reset_parameters()` in the same class, a loop
        over the parameters, in the class or in a class of the file that constructs it (`self.gnn = GNN(...)`, in
        turn), or over a model's parameters anywhere in the file, as far as its rank
        guard lets the allocation through: `if p.dim() > 1: nn.init.xavier_uniform_(p)` initializes a 4-d
        `torch.Tensor(o, i, k, k)` and leaves a 1-d `torch.Tensor(o)` bias; which classes a model outside its class
        holds is not followed, so such a loop counts for every class of the file).
        The garbage is followed through torch functions that compute from it (`torch.tril(torch.Tensor(n, n))`),
        tuples (`a, b = torch.Tensor(n), torch.Tensor(n)`) and `return` to the function's callers in the file.
        In-place arithmetic (`total += x`, `acc.add_(x)`) reads the garbage, and a write at literal indices
        (`point[0] = 1.0` into a `torch.Tensor(3)`), by a counting loop that starts past the first row (`states[t] =
        h` in `for t in range(1, T):`, `values[t + 1] = v` in `for t in range(T):`) unless the rows before it are
        written one by one (also for a plain `torch.empty(...)` buffer, when a read takes those rows: `values[:-1]`,
        not `values[1:]`), or at the keys of a loop that does not count through the
        positions (`for cls, n in counts.items(): weights[cls] = ...`; `for i in range(n)` may fill them all)
        leaves the other elements: neither initializes it. A name whose reads take only the shape, type or device
        (`x.size()`, `torch.squeeze(x).shape`) is not reported. A size in a parameter of a same-file function
        (`torch.Tensor(num_classes)`) counts when every call of the function passes an int (for `__init__`, every
        construction of the class). A `torch.nn` layer
        called on it (`self.cell(x, h)`) reads it; a call of anything else may fill it, but for a parameter of
        the class's `__init__` that defaults to `None` and that every construction of the class leaves `None` (a
        Keras-style `bias_initializer=None`, called under `if bias_initializer is not None:`): that call never
        runs. Also `torch.empty(...)`
        wrapped as a module's `nn.Parameter` that nothing in the file initializes (no `nn.init.*_` on it, no
        in-place fill, no `reset_parameters()`, no initialization loop over the module's parameters, not frozen
        with `requires_grad = False`: a frozen weight is one a checkpoint fills), in a file with no model class
        built on another framework's base (`PreTrainedModel`, `ModelMixin`: they load or initialize the weights),
        and that no module of the project imports and then initializes (`model.apply(init_weights)`, `nn.init.*_`,
        `load_state_dict`, `from_pretrained`, `reset_parameters()` in `train.py` doing `from model import Net`;
        in a project too large to search, that is not known and nothing is reported).
        A tensor allocated only to be deleted (`x = torch.cuda.FloatTensor(n, m); del x`, reserving memory) has no
        values anyone reads.

        ## Why is this bad?
        The primer: "Uppercase torch.Tensor(2, 3) is the class constructor and treats integer args as shape",
        "torch.Tensor(3) gives you a length-3 tensor of garbage, not the scalar 3. Always use lowercase
        torch.tensor unless you have a specific reason." The garbage is whatever was in memory: often zeros,
        so the bug hides in tests and shows up as NaNs or nondeterminism later.

        Data arguments (`torch.Tensor([1, 2])`, `torch.FloatTensor(array)`, a name we can't prove is an int) are
        not reported.

        ## Example
        ```python
        scale = torch.Tensor(3)          # meant the scalar 3
        bias = nn.Parameter(torch.Tensor(out_features))   # never initialized
        ```

        ## Use instead
        ```python
        scale = torch.tensor(3.0)
        bias = nn.Parameter(torch.zeros(out_features))
        ```

        ## Fix
        Safe, where the code shows the value that was meant: `torch.Tensor(3)` with one integer literal whose
        value is only read as a number (`x * torch.Tensor(3)`, `scale = torch.Tensor(2)` then `x * scale`)
        becomes `torch.tensor(3.0)` (`torch.tensor(3)` for `torch.LongTensor(3)`).

        Unsafe otherwise: the constructor becomes `torch.empty(...)` with the same sizes, with `dtype=` for
        typed constructors (`torch.LongTensor(n)` -> `torch.empty(n, dtype=torch.long)`) and `device="cuda"`
        for `torch.cuda.*Tensor`. That is the same allocation, only explicit: the finding goes away and the
        garbage stays, so it is never applied without `--unsafe-fixes`. Check whether `torch.tensor(...)` (a
        value) or an initializer (`torch.zeros`, `nn.init.*_`) was meant.
    """
    VALID = [
        # Every construction hands the optional initializers in.
        _OPTIONAL_INITIALIZERS % "Dense(dim, n_classes, kernel_initializer=nn.init.xavier_uniform_,\n"
                                 "                              bias_initializer=nn.init.zeros_)",
        # A rollout's value estimates, bootstrapped from step 1 on: only those rows are read.
        """
        import torch

        def td_errors(critic, obs, rewards, gamma=0.99):
            T, N = rewards.shape
            values = torch.empty(T + 1, N)
            for t in range(T):
                values[t + 1] = critic(obs[t]).squeeze(-1)
            return rewards + gamma * values[1:]
        """,
        # A hand-written RNN keeping its hidden states per step: the first row is the initial state.
        """
        import torch
        import torch.nn as nn

        def unroll(cell: nn.GRUCell, xs: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
            T, B, H = xs.size(0), xs.size(1), h0.size(1)
            states = torch.Tensor(T, B, H)
            h = h0
            states[0] = h0
            for t in range(1, T):
                h = cell(xs[t], h)
                states[t] = h
            return states
        """,
        # A helper of the project may fill a buffer through a view of it before it is printed.
        """
        import torch
        from utils import fill_uniform
        buf = torch.Tensor(4, 4)
        fill_uniform(buf.view(-1))
        print(buf.sum())
        """,
        # huggingface/diffusers: a layer's `torch.empty` parameters in a file whose model class is built on a
        # framework's base, which loads or initializes every weight
        """
        import torch
        import torch.nn as nn
        from diffusers.models.modeling_utils import ModelMixin
        class SwiGLUExperts(nn.Module):
            def __init__(self, num_experts, hidden_size, inner):
                super().__init__()
                self.gate_up_proj = nn.Parameter(torch.empty(num_experts, hidden_size, 2 * inner))
        class MoETransformer(ModelMixin):
            def __init__(self):
                super().__init__()
                self.experts = SwiGLUExperts(8, 64, 128)
        """,
        # LoRA: the pre-trained weight and bias are frozen, so a checkpoint fills them (only the low-rank factors
        # train); a block of GPU memory reserved and deleted, its values never read.
        """
        import torch
        import torch.nn as nn
        class LoRALinear(nn.Module):
            def __init__(self, in_features, out_features, r):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(out_features, in_features))
                self.weight.requires_grad = False
                self.bias = nn.Parameter(torch.empty(out_features))
                self.bias.requires_grad_(False)
                self.lora_a = nn.Parameter(torch.randn(r, in_features) * 0.01)
                self.lora_b = nn.Parameter(torch.zeros(out_features, r))
            def forward(self, x):
                return nn.functional.linear(x, self.weight, self.bias) + x @ self.lora_a.T @ self.lora_b.T
        """,
        """
        import torch
        def reserve_gpu_memory(free_mb: int):
            block = torch.cuda.FloatTensor(256, 1024, free_mb)
            del block
        """,
        # Parameters allocated with `torch.empty` and initialized: by `reset_parameters()`, a loop over the
        # parameters, an in-place fill on the spot, or an init function applied from outside the class.
        """
        import math
        import torch
        import torch.nn as nn
        class A(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.weight = nn.Parameter(torch.empty(d, d))
                self.reset_parameters()
            def reset_parameters(self):
                nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        class B(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.w = nn.Parameter(torch.empty(d, d))
                self.u = nn.Parameter(torch.empty(d).uniform_(-1, 1))
                for p in self.parameters():
                    nn.init.normal_(p)
        class C(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.proj = nn.Parameter(torch.empty(d, d))
        def init_weights(m):
            if isinstance(m, C):
                nn.init.orthogonal_(m.proj)
        """,
        # ikostrikov/pytorch-trpo: returns filled from the last step back to the first.
        """
        import torch
        returns = torch.Tensor(actions.size(0), 1)
        prev_return = 0
        for i in reversed(range(rewards.size(0))):
            returns[i] = rewards[i] + gamma * prev_return * masks[i]
            prev_return = returns[i, 0]
        """,
        """
        import torch
        from torch.nn import Parameter
        class AdditiveAttention(torch.nn.Module):
            def __init__(self, vector_dim: int, matrix_dim: int) -> None:
                super().__init__()
                self._w_matrix = Parameter(torch.Tensor(vector_dim, vector_dim))
                self._v_vector = Parameter(torch.Tensor(vector_dim, 1))
                self.reset_parameters()
            def reset_parameters(self):
                torch.nn.init.xavier_uniform_(self._w_matrix)
                torch.nn.init.xavier_uniform_(self._v_vector)
        """,
        """
        import torch
        def extend(num_embeddings, embedding_dim):
            weight = torch.FloatTensor(num_embeddings, embedding_dim)
            torch.nn.init.xavier_uniform_(weight)
            return weight
        """,
        """
        import torch
        embedding_matrix = torch.FloatTensor(vocab_size, embedding_dim).normal_(mean, std)
        """,
        """
        import torch
        pixel_mean = torch.Tensor(cfg.MODEL.PIXEL_MEAN).view(3, 1, 1)
        labels = torch.LongTensor(padded_tags)
        ids = torch.LongTensor([1, 2, 3])
        """,
        """
        import torch
        import torch.nn as nn
        class Embedding(nn.Module):
            def __init__(self, num_embeddings, embedding_dim, trainable=True):
                super().__init__()
                weight = torch.FloatTensor(num_embeddings, embedding_dim)
                self.weight = torch.nn.Parameter(weight, requires_grad=trainable)
                torch.nn.init.xavier_uniform_(self.weight)
        """,
        """
        import torch
        class Linear(torch.nn.Module):
            def __init__(self, in_features, out_features):
                super().__init__()
                self.weight = torch.nn.Parameter(torch.Tensor(out_features, in_features))
                self.bias = torch.nn.Parameter(torch.Tensor(out_features))
                self.reset_parameters()
            def reset_parameters(self):
                stdv = 1.0 / self.weight.size(1) ** 0.5
                self.weight.data.uniform_(-stdv, stdv)
                self.bias.data.uniform_(-stdv, stdv)
        """,
        """
        import torch
        def positions(size, device):
            return torch.cuda.LongTensor(size, device=device).fill_(1).cumsum(0) - 1
        """,
        """
        import torch
        buffer = torch.LongTensor(len(indices))
        torch.randperm(len(indices), out=buffer)
        """,
        """
        import torch
        table = torch.Tensor(len(vocab), dim)
        for i, word in enumerate(vocab):
            table[i] = vectors[word]
        """,
        """
        import numpy as np
        import torch
        x = np.ndarray(3)
        y = torch.Tensor(np.zeros(3))
        """,
        """
        import numpy as np
        import torch
        # a dummy input for tracing: only its shape matters
        torch.onnx.export(model, torch.Tensor(1, 3, 224, 224), "model.onnx")
        # garbage times NaN is a NaN placeholder of that shape
        targets = torch.Tensor(labels.shape[0]).view(-1, 1) * np.nan
        """,
        """
        import torch
        def furthest_point_sample(points, num_points, ext):
            B, N = points.size()[:2]
            output = torch.IntTensor(B, num_points).npu()
            temp = torch.FloatTensor(B, N).fill_(1e10).npu()
            ext.furthest_point_sampling_forward(points, temp, output, B, N, num_points)
            return output
        """,
        """
        import torch
        import torch.nn as nn
        from torch.nn import init
        from .modeling_base import BaseModel
        # initialized by another class of the file through `module.q`, or by a base class we can't see
        class RelativeAttention(nn.Module):
            def __init__(self, d_model, n_head, d_head):
                super().__init__()
                self.q = nn.Parameter(torch.FloatTensor(d_model, n_head, d_head))
                self.r_w_bias = nn.Parameter(torch.FloatTensor(n_head, d_head))
                self.codevectors = nn.Parameter(torch.FloatTensor(1, n_head, d_head))
        class PreTrainedModel(nn.Module):
            def _init_weights(self, module):
                if isinstance(module, RelativeAttention):
                    for param in [module.q, module.r_w_bias]:
                        init.normal_(param, mean=0.0, std=0.02)
                    init.uniform_(module.codevectors)
        class GroundingModel(BaseModel):
            def __init__(self, config):
                super().__init__(config)
                self.level_embed = nn.Parameter(torch.Tensor(config.num_feature_levels, config.d_model))
        """,
        """
        import torch
        # a buffer handed back to the caller, who fills it
        def new_buffer(n: int):
            return torch.FloatTensor(n, 4)
        buf = new_buffer(16)
        buf.zero_()
        xy = torch.Tensor(2)
        xy[0] = width
        xy[1] = height
        ratio = xy[0] / xy[1]
        """,
        """
        import torch
        def asg_targets(emissions, targets):
            B, T = emissions.size(0), emissions.size(1)
            target = torch.IntTensor(B, T)
            for b in range(B):
                target[b][: len(targets[b])] = torch.IntTensor(targets[b])
            return target
        """,
        """
        import torch
        def class_weights(labels, num_classes: int):
            weights = torch.Tensor(num_classes)
            for c in range(num_classes):
                weights[c] = 1.0 / max(1, int((labels == c).sum()))
            return weights
        def as_tensor(values):
            return torch.Tensor(values)
        w = class_weights(torch.randint(0, 5, (100,)), 5)
        t = as_tensor([0.5, 1.5])
        """,
        # A tutorial's shape demos: only the sizes of the garbage are read.
        """
        import torch
        x = torch.FloatTensor(10, 12, 3, 3)
        x.size()[:]
        x1 = torch.FloatTensor(10, 1, 3, 1, 4)
        x2 = torch.squeeze(x1)
        x1.size(), x2.size()
        b1 = torch.FloatTensor(10, 3, 4)
        torch.bmm(b1, b1.transpose(1, 2)).size(), b1.transpose(1, 2).shape
        """,

        # The constructor handed data: a tensor of those values.
        """
        import torch
        import torch.nn as nn
        class Scale(nn.Module):
            def __init__(self, values):
                super().__init__()
                self.register_buffer("std", torch.Tensor(values))
            def forward(self, x):
                return x / self.std[:, None, None]
        scale = Scale([0.229, 0.224, 0.225])
        """,
        # A script's module-level input buffers, refilled with each batch by a helper (kimhc6028's
        # relational-networks): the helper writes the module's tensors, it binds no name of its own.
        """
        import torch
        batch_size = 32
        images = torch.FloatTensor(batch_size, 3, 64, 64)
        answers = torch.LongTensor(batch_size)
        def fill(dataset, step):
            rows = slice(batch_size * step, batch_size * (step + 1))
            images.resize_(dataset.images[rows].size()).copy_(dataset.images[rows])
            answers.data.resize_(dataset.answers[rows].size()).copy_(dataset.answers[rows])
        def train(model, dataset, steps):
            for step in range(steps):
                fill(dataset, step)
                model.step(images, answers)
        """,
        # A legacy layer whose weights the training script initializes, outside the class: a loop over the model's
        # parameters whose rank guard lets the 4-d kernel through, or an init function applied to every submodule.
        """
        import torch
        import torch.nn as nn
        class DeformConv2d(nn.Module):
            def __init__(self, in_channels, out_channels, kernel_size):
                super().__init__()
                self.weight = nn.Parameter(torch.Tensor(out_channels, in_channels, kernel_size, kernel_size))
        class GraphConv(nn.Module):
            def __init__(self, in_features, out_features):
                super().__init__()
                self.bias = nn.Parameter(torch.Tensor(out_features))
        def init_params(m):
            for name, p in m.named_parameters():
                if p.dim() == 1:
                    nn.init.zeros_(p)
        def main():
            model = nn.Sequential(DeformConv2d(64, 64, 3), GraphConv(64, 32))
            for p in model.parameters():
                if p.dim() > 1:
                    nn.init.xavier_uniform_(p)
            model.apply(init_params)
        """,
        # CRIPAC-DIG/SR-GNN: the session model's `reset_parameters()` loops over all of its parameters, those of the
        # GNN cell it constructs included.
        """
        import math
        import torch
        from torch import nn
        from torch.nn import Module, Parameter
        import torch.nn.functional as F
        class GNN(Module):
            def __init__(self, hidden_size, step=1):
                super(GNN, self).__init__()
                self.gate_size = 3 * hidden_size
                self.w_ih = Parameter(torch.Tensor(self.gate_size, hidden_size * 2))
                self.w_hh = Parameter(torch.Tensor(self.gate_size, hidden_size))
            def forward(self, inputs, hidden):
                return F.linear(inputs, self.w_ih) + F.linear(hidden, self.w_hh)
        class SessionGraph(Module):
            def __init__(self, opt, n_node):
                super(SessionGraph, self).__init__()
                self.hidden_size = opt.hiddenSize
                self.embedding = nn.Embedding(n_node, self.hidden_size)
                self.gnn = GNN(self.hidden_size, step=opt.step)
                self.reset_parameters()
            def reset_parameters(self):
                stdv = 1.0 / math.sqrt(self.hidden_size)
                for weight in self.parameters():
                    weight.data.uniform_(-stdv, stdv)
        """,
    ]
    INVALID = [
        # A construction that passes no initializer leaves both parameters as `torch.empty` allocated them: the
        # calls under `if ... is not None` never run.
        Invalid(_OPTIONAL_INITIALIZERS % "Dense(dim, n_classes)", count=2),
        # One construction passes the weight's initializer: only the bias is left for every construction.
        _OPTIONAL_INITIALIZERS % "Dense(dim, n_classes, kernel_initializer=nn.init.xavier_uniform_)",
        # A model whose loop over its own parameters initializes only the 1-d ones: the 2-d weight of the cell it
        # constructs is left as allocated.
        """
        import torch
        from torch import nn
        class GNN(nn.Module):
            def __init__(self, hidden_size):
                super().__init__()
                self.w_ih = nn.Parameter(torch.Tensor(3 * hidden_size, 2 * hidden_size))
            def forward(self, x):
                return x @ self.w_ih.t()
        class SessionGraph(nn.Module):
            def __init__(self, opt, n_node):
                super().__init__()
                self.gnn = GNN(100)
                self.reset_parameters()
            def reset_parameters(self):
                for weight in self.parameters():
                    if weight.dim() == 1:
                        nn.init.zeros_(weight)
        """,
        # The transformer recipe's initialization, `if p.dim() > 1: xavier_uniform_(p)`, skips every 1-d parameter:
        # a legacy bias is left as it was allocated, here and in a loop of the class itself.
        Invalid(
            """
            import torch
            import torch.nn as nn
            class LayerScale(nn.Module):
                def __init__(self, dim):
                    super().__init__()
                    self.gamma = nn.Parameter(torch.Tensor(dim))
            class Attention(nn.Module):
                def __init__(self, d_model):
                    super().__init__()
                    self.out_proj_weight = nn.Parameter(torch.Tensor(d_model, d_model))
                    self.out_proj_bias = nn.Parameter(torch.Tensor(d_model))
                    for p in self.parameters():
                        if p.dim() < 2:
                            continue
                        nn.init.xavier_uniform_(p)
            def main():
                model = nn.Sequential(Attention(512), LayerScale(512))
                for p in model.parameters():
                    if p.dim() > 1:
                        nn.init.xavier_uniform_(p)
            """,
            count=2,
        ),
        # A rollout's value estimates, bootstrapped from step 1 on: `values[:-1]` reads row 0, which nothing
        # writes.
        """
        import torch

        def td_errors(critic, obs, rewards, gamma=0.99):
            T, N = rewards.shape
            values = torch.empty(T + 1, N)
            for t in range(T):
                values[t + 1] = critic(obs[t]).squeeze(-1)
            return rewards + gamma * values[1:] - values[:-1]
        """,
        # A hand-written RNN keeping its hidden states per step: the loop starts at step 1 and row 0 keeps
        # its garbage.
        """
        import torch
        import torch.nn as nn

        def unroll(cell: nn.GRUCell, xs: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
            T, B, H = xs.size(0), xs.size(1), h0.size(1)
            states = torch.Tensor(T, B, H)
            h = h0
            for t in range(1, T):
                h = cell(xs[t], h)
                states[t] = h
            return states
        """,
        # GAN noise from a helper, printed: `.std()` hands print a new tensor, which cannot fill the noise.
        """
        import torch
        def sample_noise(n, dim):
            return torch.FloatTensor(n, dim).to("cuda")
        z = sample_noise(64, 100)
        print(z.std())
        """,
        # A per-class sum that an epoch helper returns and its caller prints: `index_add_` adds to the garbage.
        """
        import torch
        def train_one_epoch(loader, num_classes):
            class_loss = torch.Tensor(num_classes)
            for x, y in loader:
                class_loss.index_add_(0, y, x)
            return class_loss
        def main(loader):
            for epoch in range(10):
                print(train_one_epoch(loader, 10))
        """,
        # sauradip/STALE: the background embedding is never initialized, and NaNs appear in some runs.
        """
        import torch
        import torch.nn as nn
        class STALE(nn.Module):
            def __init__(self, feat_dim=512):
                super().__init__()
                self.txt_proj = nn.Linear(feat_dim, feat_dim)
                self.bg_embeddings = nn.Parameter(torch.empty(1, feat_dim))
            def forward(self, text_feat):
                return torch.cat([self.bg_embeddings, self.txt_proj(text_feat)], dim=0)
        """,
        # The initial hidden state of a recurrent cell: the layer reads it, it fills nothing.
        """
        import torch
        import torch.nn as nn
        class RNN(nn.Module):
            def __init__(self, hidden):
                super().__init__()
                self.hidden = hidden
                self.cell = nn.RNNCell(4, hidden)
            def forward(self, xs):
                h = torch.FloatTensor(xs.size(1), self.hidden)
                for x in xs:
                    h = self.cell(x, h)
                return h
        """,
        Invalid(
            """
            import torch
            scale = torch.Tensor(3)
            """,
            fixed="""
            import torch
            scale = torch.empty(3)
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def __init__(self, in_features: int, out_features: int):
                    super().__init__()
                    self.weight = nn.Parameter(torch.Tensor(out_features, in_features))
                    self.bias = nn.Parameter(torch.Tensor(out_features))
                    nn.init.kaiming_uniform_(self.weight)
            """,
            fixed="""
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def __init__(self, in_features: int, out_features: int):
                    super().__init__()
                    self.weight = nn.Parameter(torch.Tensor(out_features, in_features))
                    self.bias = nn.Parameter(torch.empty(out_features))
                    nn.init.kaiming_uniform_(self.weight)
            """,
        ),
        Invalid(
            """
            import torch
            def make_index(x):
                idx = torch.LongTensor(x.size(0))
                return x[idx]
            """,
            fixed="""
            import torch
            def make_index(x):
                idx = torch.empty(x.size(0), dtype=torch.long)
                return x[idx]
            """,
        ),
        Invalid(
            """
            import torch as th
            mask = th.cuda.ByteTensor(len(tokens), 4)
            """,
            fixed="""
            import torch as th
            mask = th.empty(len(tokens), 4, dtype=th.uint8, device="cuda")
            """,
        ),
        """
        from torch import FloatTensor
        noise = FloatTensor(batch_size, latent_dim)
        """,
        Invalid(
            """
            import torch
            def logits(x):
                return x * torch.Tensor(3)
            """,
            fixed="""
            import torch
            def logits(x):
                return x * torch.tensor(3.0)
            """,
        ),
        Invalid(
            """
            import torch
            temperature = torch.LongTensor(2)
            scaled = logits / temperature
            """,
            fixed="""
            import torch
            temperature = torch.tensor(2)
            scaled = logits / temperature
            """,
        ),
        """
        import torch
        def causal_mask(size: int):
            return torch.tril(torch.Tensor(size, size)) == 0
        """,
        """
        import torch
        def subsequent_mask(size: int):
            return torch.triu(torch.Tensor(size, size), diagonal=1)
        """,
        Invalid(
            """
            import torch
            def init_hidden(batch: int, hidden: int):
                return torch.Tensor(1, batch, hidden), torch.Tensor(1, batch, hidden)
            """,
            count=2,
        ),
        """
        import torch
        def init_state(batch: int, hidden: int):
            h, c = torch.Tensor(batch, hidden), torch.zeros(batch, hidden)
            return torch.stack([h, c])
        """,
        """
        import torch
        def epoch_loss(losses, n: int):
            total = torch.Tensor(n)
            for loss in losses:
                total += loss
            return total.mean()
        """,
        """
        import torch
        def running(xs, n: int):
            acc = torch.Tensor(n)
            for x in xs:
                acc.add_(x)
            return acc
        """,
        """
        import torch
        point = torch.Tensor(3)
        point[0] = 1.0
        distance = (point - origin).norm()
        """,
        # The loop visits the classes that occur, not every position: the others keep their garbage.
        """
        import torch
        from collections import Counter
        def inverse_frequency(labels, num_classes):
            weights = torch.Tensor(num_classes)
            for cls, count in Counter(labels.tolist()).items():
                weights[cls] = len(labels) / count
            return weights / weights.sum()
        n_classes = 10
        class_weights = inverse_frequency(train_labels, n_classes)
        criterion = torch.nn.CrossEntropyLoss(weight=class_weights)
        """,
        # The same demos reading the values: the garbage is shown.
        """
        import torch
        x1 = torch.FloatTensor(3, 4)
        x1.size()
        torch.exp(x1)
        """,
        # A buffer sized by the constructor's parameter, which every construction passes an int.
        """
        import torch
        import torch.nn as nn
        class Normalizer(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.register_buffer("mean", torch.Tensor(d))
            def forward(self, x):
                return x - self.mean
        norm = Normalizer(16)
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._events: list[tuple] = []  # what the visits saw, in order, for `_Replay`

    # -------------------------------------------------------------------------------------------- allocations

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if any(_PRETRAINED.match(last_name(base.value) or "") or (self.ctx.qualname(base.value) or "").split(".")[0]
               in ("transformers", "diffusers") for base in node.bases):
            self._events.append(("pretrained",))
        # the classes of the file it constructs (`self.gnn = GNN(...)`): a loop over its parameters reaches theirs
        self._events.append(("class", node.name.value, id(node), frozenset(
            inner.func.value for inner in self.ctx.walk(node.body)
            if type(inner) is cst.Call and type(inner.func) is cst.Name)))

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        name = last_name(func)
        if name.endswith("Tensor") and self.ctx.qualname(func) in CONSTRUCTORS:
            self._allocation(node)
        elif name == "empty" and self.ctx.qualname(func) == "torch.empty":
            # a buffer you fill is what `torch.empty` is for: only a loop that leaves its first rows says otherwise
            self._allocation(node, empty=True, buffer=not self._held_as_parameter())
        else:
            self._note_writes(node, name)

    def _held_as_parameter(self) -> bool:
        """The call being visited is what `nn.Parameter(...)` wraps: a weight the module must initialize."""
        ancestors = self.ctx.ancestors
        if len(ancestors) < 3:
            return False
        arg, call = ancestors[-2], ancestors[-3]
        return type(arg) is cst.Arg and type(call) is cst.Call and call.args[0] is arg \
            and self.ctx.qualname(call.func) in _PARAMETER

    def _allocation(self, node: cst.Call, empty: bool = False, buffer: bool = False) -> None:
        sizes = positional(node)
        size_parameter = None if empty else self._size_parameter(sizes)
        if not sizes or not empty and len(sizes) == 1 and size_parameter is None \
                and not is_int(self.ctx, sizes[0].value):
            return  # no argument is an empty tensor; one argument that may be data is data
        if any(type(size.value) is cst.Integer and size.value.evaluated_value == 0 for size in sizes):
            return  # `nn.Parameter(torch.Tensor(0))`: an empty placeholder has no values to forget
        keys = self._destination()
        if keys is None:
            return
        class_def = self.ctx.class_def
        if class_def is not None and _has_foreign_base(self.ctx, class_def):
            self._events.append(("inherited", id(class_def)))
        literal = sizes[0].value if len(sizes) == 1 and len(node.args) == 1 else None
        literal_size = literal.evaluated_value if type(literal) is cst.Integer and not empty else None
        # read on the spot: `x * torch.Tensor(3)`
        used_as_number = _numeric_use(self.ctx.ancestors[-2]) if literal_size is not None and not keys else None
        self._events.append(("allocation", node, frozenset(keys), id(class_def) if class_def is not None else None,
                             None if empty else self._fix(node), literal_size, used_as_number, size_parameter,
                             empty, buffer, _rank(sizes)))

    def _size_parameter(self, sizes: list[cst.Arg] | None) -> tuple[cst.FunctionDef, str] | None:
        """`torch.Tensor(num_classes)` with `num_classes` a parameter of the function, not annotated: whether it is
        a size or data is for the callers to say (`finish`)."""
        function = self.ctx.function
        if not sizes or len(sizes) != 1 or type(sizes[0].value) is not cst.Name or function is None:
            return None
        binding = self.ctx.binding(sizes[0].value)
        if binding is None or binding.kind != "param" or binding.statement is not function:
            return None
        return None if param_annotation(function, binding.name) is not None else (function, binding.name)

    def _passed_ints(self, function: cst.FunctionDef, parameter: str) -> bool:
        """Every call of `function` in the file passes an int as `parameter`: for a constructor, every construction
        of its class (`Normalizer(16)`)."""
        class_def = self.ctx.class_of_method(function)
        if class_def is None or function.name.value != "__init__":
            return every_call_passes(self.ctx, function, parameter, is_int)
        return every_construction_passes(self.ctx, class_def, function, parameter,
                                         is_int)

    def _destination(self) -> set[Key] | None:
        """Where the allocation's values go. None: nobody can be shown to read them unwritten (it is initialized
        on the spot, handed to other code, or only its shape and type are used). Else the names and attributes
        that hold it (a function's return counts as one); empty when the garbage is read right here
        (`torch.LongTensor(b, n) % ntoken`)."""
        ancestors = self.ctx.ancestors
        current = ancestors[-1]
        i = len(ancestors) - 2
        while i >= 1:
            parent, grandparent = ancestors[i], ancestors[i - 1]
            kind = type(parent)
            if kind is cst.Attribute:
                if type(grandparent) is not cst.Call or grandparent.func is not parent:
                    return None  # `.shape`, `.dtype`
                if _writes_or_ignores_values(parent.attr.value):
                    return None
                # Any other method (`.cuda()`, `.view(...)`, `.sum()`, `.add_(x)`) hands on values derived from
                # the garbage: follow them to where they are written or read.
                current, i = grandparent, i - 2
                continue
            if kind is cst.Arg and type(grandparent) is cst.Call:
                if grandparent.args[0] is parent and self.ctx.qualname(grandparent.func) in _PARAMETER:
                    current, i = grandparent, i - 2
                    continue
                attribute = _registered(grandparent, parent)
                if attribute is not None and self.ctx.class_def is not None:
                    return {("attr", id(self.ctx.class_def), attribute)}
                if self._passes_values_on(grandparent, parent):  # `torch.tril(torch.Tensor(n, n))`
                    current, i = grandparent, i - 2
                    continue
                return None  # filled by the callee, or a dummy input whose values don't matter (tracing)
            if kind is cst.Element and type(grandparent) in (cst.Tuple, cst.List):
                target = _unpacked_into(ancestors[i - 2], grandparent, parent) if i >= 2 else None
                if target is not None:  # `a, b = torch.Tensor(n), torch.Tensor(m)`
                    key = self._key(target)
                    return None if key is None else {key}
                current, i = grandparent, i - 2  # the container holds the garbage
                continue
            if kind is cst.Assign or kind is cst.AnnAssign:
                targets = [t.target for t in parent.targets] if kind is cst.Assign else [parent.target]
                keys = [self._key(target) for target in targets]
                return None if None in keys else set(keys)
            if kind is cst.Return:
                function = self.ctx.function
                return None if function is None else {("returns", 0, function.name.value)}
            if kind is cst.BinaryOperation:
                other = parent.right if parent.left is current else parent.left
                return None if _is_nan(self.ctx, other) else set()  # garbage * nan is a NaN tensor on purpose
            if kind is cst.UnaryOperation or kind is cst.Comparison or kind is cst.ComparisonTarget:
                return set()
            return None
        return None

    def _passes_values_on(self, call: cst.Call, arg: cst.Arg) -> bool:
        """A torch function that computes from its argument's values (`torch.tril`, `F.relu`, `torch.cat`) and
        returns them: the garbage comes out of it. Not `out=`, `*_like` (shape only), nor `torch.onnx.export`."""
        if arg.keyword is not None:
            return False
        qualname = self.ctx.qualname(call.func)
        if qualname is None:
            return False
        module, _, function = qualname.rpartition(".")
        return (module in _PURE_MODULES and not function.endswith(("_like", "_")) and function not in _SHAPE_ONLY
                and keyword_arg(call, "out") is None)

    def _fix(self, node: cst.Call) -> Fix | None:
        root = self._torch_root(node.func)
        if root is None:
            return None
        qualname = self.ctx.qualname(node.func)
        args = list(node.args)
        dtype = _DTYPE_OF[qualname.rsplit(".", 1)[1]]
        if dtype is not None:
            args.append(new_keyword_arg("dtype", cst.Attribute(value=root, attr=cst.Name(dtype))))
        if qualname.startswith("torch.cuda.") and keyword_arg(node, "device") is None:
            args.append(new_keyword_arg("device", cst.SimpleString('"cuda"')))
        new = node.with_changes(func=cst.Attribute(value=root, attr=cst.Name("empty")), args=args)
        # The same allocation, only explicit: the finding goes away and the garbage stays, so a person must look.
        return Fix("Use `torch.empty(...)`", ((node, new),), applicability="unsafe")

    def _value_fix(self, allocation: _Allocation) -> Fix | None:
        """`torch.Tensor(3)` read as a number -> `torch.tensor(3.0)`: the value the code meant."""
        node = allocation.node
        root = self._torch_root(node.func)
        if root is None:
            return None
        qualname = self.ctx.qualname(node.func)
        dtype = _DTYPE_OF[qualname.rsplit(".", 1)[1]]
        if dtype == "bool":
            return None
        floating = dtype in (None, "float", "double", "half", "bfloat16")
        args = [cst.Arg(cst.Float(f"{allocation.literal}.0") if floating else cst.Integer(str(allocation.literal)))]
        if dtype not in (None, "float", "long"):  # the defaults of a float and an int literal
            args.append(new_keyword_arg("dtype", cst.Attribute(value=root, attr=cst.Name(dtype))))
        if qualname.startswith("torch.cuda."):
            args.append(new_keyword_arg("device", cst.SimpleString('"cuda"')))
        new = cst.Call(func=cst.Attribute(value=root, attr=cst.Name("tensor")), args=args)
        return Fix(_SAFE_FIX_MESSAGE, ((node, new),))

    def _torch_root(self, func: cst.BaseExpression) -> cst.BaseExpression | None:
        """How to spell `torch` in the fix: the constructor's own prefix, else the file's import."""
        on_cuda = self.ctx.qualname(func).startswith("torch.cuda.")
        root = func.value if type(func) is cst.Attribute else None
        if root is not None and on_cuda:
            root = root.value if type(root) is cst.Attribute else None
        if root is None or self.ctx.qualname(root) != "torch":
            spelling = self.ctx.spelling("torch")
            if spelling is None:
                return None
            root = cst.parse_expression(spelling)
        return root

    def visit_Name(self, node: cst.Name) -> None:
        parent = self.ctx.parent
        if type(parent) is cst.AssignTarget:
            return
        if type(parent) is cst.Del:  # drops the name without reading it
            self._events.append(("dropped", ("local", id(self.ctx.function), node.value)))
            return
        self._note_read(node)
        self._note_rows(node)
        numeric = _numeric_use(parent) or type(parent) is cst.AugAssign and parent.target is node
        self._events.append(("use", ("local", id(self.ctx.function), node.value), numeric))

    def _note_rows(self, node: cst.Name) -> None:
        """The first row a read of the name may take the values of: 0 for the whole tensor (`states.mean(0)`),
        k for `values[k:]` or `values[k]`; nothing for a write, a read of the shape, or a computed row."""
        ancestors = self.ctx.ancestors
        parent = ancestors[-2] if len(ancestors) > 1 else None
        row: int | None = 0
        if type(parent) is cst.Subscript and parent.value is node:
            if len(ancestors) > 2 and type(ancestors[-3]) is cst.AssignTarget:
                return
            row = _first_row(parent)
        if row is not None and _read_use(self.ctx, ancestors) is not False:
            self._events.append(("rows", ("local", id(self.ctx.function), node.value), row))

    def _note_read(self, node: cst.Name) -> None:
        """Note how a name bound to the result of a call is read, for the replay to tell whether that call is an
        allocation or a tensor computed from one (see `_read`)."""
        binding = self.ctx.binding(node)
        # An allocation and a tensor computed from one (`x2 = torch.squeeze(x1)`) are both calls.
        if binding is None or binding.kind != "assign" or type(binding.value) is not cst.Call:
            return
        self._events.append(("read", binding.statement, binding.value, _read_use(self.ctx, self.ctx.ancestors)))

    # ------------------------------------------------------------------------------------------------- writes

    def _note_writes(self, node: cst.Call, name: str) -> None:
        """Remember what a call may write: its receiver for `w.uniform_()` / `w.data.fill_(0)`, its arguments
        for anything but torch's pure functions (`nn.init.normal_(w)`, `broadcast(w)`, `out=w`), the whole class
        for `self.reset_parameters()`."""
        ctx = self.ctx
        func = node.func
        if type(func) is cst.Attribute:
            receiver = func.value
            if _is_self(receiver) and ctx.class_def is not None:
                if name == "apply" or name.strip("_").startswith(("reset", "init")):
                    # `self.apply(init)` reaches the modules it holds too; a `reset_parameters()` of its own may not
                    self._events.append(("initialized", id(ctx.class_def), None, name == "apply"))
            elif _writes_or_ignores_values(name) or name == "requires_grad_" and node.args \
                    and is_false(node.args[0].value):
                self._written_to(receiver)  # `w.requires_grad_(False)` freezes it: a frozen weight is loaded
        if not node.args:
            return
        qualname = ctx.qualname(func)
        if qualname in _PARAMETER:
            return  # its holder is followed by `visit_Assign`
        registered = _registered(node, node.args[1]) if len(node.args) > 1 else None
        if registered is not None:
            self._alias(node.args[1].value, registered)
            return
        if qualname is None and self._runs_layer(func):
            return  # `self.cell(x, h)`: a torch.nn layer reads its inputs, it writes none of them
        if is_builtin_call(ctx, node, *_READING_BUILTINS):
            return  # `print(train_epoch(...))`: a builtin reads what it is handed
        pure = qualname is not None and qualname.rsplit(".", 1)[0] in _PURE_MODULES
        optional = self._optional_callee(func)
        for arg in node.args:
            if not pure or arg.keyword is not None and arg.keyword.value == "out":
                self._written_to(arg.value, optional)

    def _optional_callee(self, func: cst.BaseExpression) -> tuple[cst.ClassDef, cst.FunctionDef, str] | None:
        """`bias_initializer(self.bias)` in an `__init__` whose `bias_initializer=None` is a parameter: the class,
        the `__init__` and the parameter, when its default is `None` (a Keras-style optional initializer)."""
        ctx = self.ctx
        function, class_def = ctx.function, ctx.class_def
        if type(func) is not cst.Name or function is None or class_def is None or function.name.value != "__init__":
            return None
        binding = ctx.binding(func)
        if binding is None or binding.kind != "param" or binding.statement is not function:
            return None
        params = function.params
        default = next((param.default for param in (*params.posonly_params, *params.params, *params.kwonly_params)
                        if param.name.value == func.value), None)
        return (class_def, function, func.value) if type(default) is cst.Name and default.value == "None" else None

    def _runs_layer(self, func: cst.BaseExpression) -> bool:
        """`func` names a torch.nn layer (`self.cell` with `self.cell = nn.RNNCell(...)`)."""
        construction, _ = construction_of(self.ctx, func)
        return construction is not None and torch_layer(self.ctx, construction) is not None

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            written = target.target
            if type(written) is cst.Subscript:
                index = _literal_index(written)
                start = self._loop_start(written) if index is None else None
                if start is not None:
                    key = self._key(written.value)
                    if key is not None:  # rows below `start` keep their garbage, unless written one by one
                        self._events.append(("from", key, start))
                elif index is None:
                    if not self._keyed_by_other_loop(written):
                        self._written_to(written)  # `target[b][:n] = ...`, `table[i] = ...`: can fill it all
                else:
                    key = self._key(written.value)
                    if key is not None:
                        self._events.append(("partial", key, index))
                self._written_to(node.value)  # stored in a container: out of our sight
            elif type(written) is cst.Attribute and written.attr.value == "data":
                self._written_to(written)
            elif type(written) is cst.Attribute and written.attr.value == "requires_grad" \
                    and is_false(node.value):
                self._written_to(written.value)  # a frozen weight: a checkpoint fills it (LoRA's pre-trained W0)
        # `weight = torch.FloatTensor(n, d)` then `self.weight = Parameter(weight)`: both names hold it.
        for target in node.targets:
            if type(target.target) is not cst.Subscript:
                self._alias(node.value, target.target)

    def _keyed_by_other_loop(self, written: cst.Subscript) -> bool:
        """`weights[cls] = ...` in `for cls, count in counts.items():`: the loop visits the keys it has, not every
        position, so the positions no key names keep their garbage (a `for i in range(n)` loop may fill them all)."""
        if type(written.value) is not cst.Name or not written.slice:
            return False
        first = written.slice[0].slice
        if type(first) is not cst.Index or type(first.value) is not cst.Name:
            return False
        binding = self.ctx.binding(first.value)
        return binding is not None and binding.kind == "for" and binding.statement in self.ctx.loops \
            and not _counts(self.ctx, binding)

    def _loop_start(self, written: cst.Subscript) -> int | None:
        """The first row a counting loop writes when it is not row 0: `states[t] = h` in `for t in range(1, T):`,
        `values[t + 1] = v` in `for t in range(T):`; None for any other write."""
        if type(written.value) is not cst.Name or not written.slice or type(written.slice[0].slice) is not cst.Index:
            return None
        first, offset = written.slice[0].slice.value, 0
        if type(first) is cst.BinaryOperation and type(first.operator) is cst.Add \
                and type(first.right) is cst.Integer:
            first, offset = first.left, first.right.evaluated_value
        if type(first) is not cst.Name:
            return None
        binding = self.ctx.binding(first)
        if binding is None or binding.kind != "for" or binding.statement not in self.ctx.loops \
                or binding.index is not None:
            return None
        start = _range_start(self.ctx, binding.value)
        return start + offset if start is not None and start + offset > 0 else None

    def visit_Return(self, node: cst.Return) -> None:
        function = self.ctx.function
        if node.value is None or function is None:
            return
        # The caller gets it: followed to the call sites of this function in the file.
        values = node.value.elements if type(node.value) is cst.Tuple else [node.value]
        for value in values:
            self._alias(value.value if isinstance(value, cst.BaseElement) else value,
                        ("returns", 0, function.name.value))

    def _alias(self, value: cst.BaseExpression, target: cst.BaseExpression | str | Key) -> None:
        source = self._key(_unwrap(self.ctx, value))
        if source is None:
            return
        if isinstance(target, tuple):
            key: Key | None = target
        elif isinstance(target, str):
            class_def = self.ctx.class_def
            key = ("attr", id(class_def), target) if class_def is not None else None
        else:
            key = self._key(target)
        if key is not None:
            self._events.append(("alias", source, key))

    def _written_to(self, expr: cst.BaseExpression,
                    unless: tuple[cst.ClassDef, cst.FunctionDef, str] | None = None) -> None:
        """`unless`: the write is made by calling a constructor's parameter that defaults to `None`; `finish` drops
        it when every construction of the class leaves it `None` (the call never runs)."""
        # A write through a view writes the tensor: `w.data.fill_(0)`, `w.narrow(1, 0, n).copy_(x)`, `w[i].zero_()`
        for _ in range(16):
            if type(expr) is cst.Call and type(expr.func) is cst.Attribute and not _is_self(expr.func.value):
                if expr.func.attr.value in _FRESH:
                    return  # `print(w.std())`: the callee gets a new tensor or number, which shares no memory with w
                expr = expr.func.value
            elif type(expr) is cst.Subscript:
                expr = expr.value
            elif type(expr) is cst.Attribute and expr.attr.value in ("data", "T", "mT"):
                expr = expr.value
            else:
                break
        key = self._key(expr)
        if key is None:
            return
        self._events.append(("written", key) if unless is None else ("written unless", key, unless))
        if key[0] != "local":
            return
        binding = self.ctx.binding(expr)
        if binding is None or binding.kind != "for":
            return
        if type(binding.value) in (cst.List, cst.Tuple):  # `for p in [module.q, module.k]: init.normal_(p)`
            for element in binding.value.elements:
                self._written_to(element.value)
        elif self.ctx.class_def is not None:  # `for p in self.parameters(): init(p)`, of the modules it holds too
            self._events.append(("initialized", id(self.ctx.class_def), _ranks_written(self.ctx, binding),
                                 _iterates_parameters(binding.value, of_self=True)))
        elif _iterates_parameters(binding.value) and self._initializes():
            # `for p in model.parameters(): init(p)` in `main()`: which class `model` is, and which classes it holds,
            # is not followed, so it counts for every class of the file, for the ranks its guard lets through
            self._events.append(("initialized", None, _ranks_written(self.ctx, binding), False))

    def _initializes(self) -> bool:
        """The call being visited fills a tensor: an `nn.init.*_` function or an in-place writer (`p.data.normal_()`),
        not any call a parameter is handed to (`p.requires_grad_(False)` freezes it, `log(p)` reads it)."""
        call = self.ctx.ancestors[-1]
        if type(call) is not cst.Call:
            return False
        name = last_name(call.func)
        if type(call.func) is cst.Attribute and name != "requires_grad_" and _writes_or_ignores_values(name):
            return True
        return (self.ctx.qualname(call.func) or "").startswith("torch.nn.init.")

    def _key(self, expr: cst.BaseExpression) -> Key | None:
        if type(expr) is cst.Name:
            return ("local", id(self._owner(expr)), expr.value)
        if type(expr) is cst.Call:  # `make(n)`, `self.make(n)`: what that function of the file returns
            func = expr.func
            if type(func) is cst.Name and self.ctx.qualname(func) is None:
                return ("returns", 0, func.value)
            if type(func) is cst.Attribute and _is_self(func.value):
                return ("returns", 0, func.attr.value)
            return None
        if type(expr) is not cst.Attribute:
            return None
        if _is_self(expr.value):
            class_def = self.ctx.class_def
            return ("attr", id(class_def), expr.attr.value) if class_def is not None else None
        dotted = dotted_name(expr)  # `all_gather_list._buffer`: a module-wide name for it
        return ("dotted", 0, dotted) if dotted is not None else None

    def _owner(self, name: cst.Name) -> cst.FunctionDef | None:
        """The function whose name `name` is, or None for the module's: a function that writes a module-level
        buffer without binding the name (`input_img.data.resize_(n).copy_(batch)` in a loader helper) writes the
        module's tensor."""
        function = self.ctx.function
        if function is None:
            return None
        binding = self.ctx.binding(name)
        if binding is not None and binding.path \
                and not any(type(node) in (cst.FunctionDef, cst.Lambda) for node in binding.path):
            return None
        return function

    def finish(self) -> None:
        replay = _Replay(self._events, lambda unless: every_construction_passes(
            self.ctx, *unless, lambda _, passed: type(passed) is cst.Name and passed.value == "None"))
        # `init.normal_(module.level_embed)` in an `_init_weights(self, module)`: the attribute is written through
        # another name for the instance.
        written_attributes = {key[2].rsplit(".", 1)[-1] for key in replay.written if key[0] == "dotted"}
        initialized_by_importer: bool | None = None  # asked once, when an empty parameter is about to be reported
        for allocation in replay.allocations:
            if allocation.keys & replay.written or replay.filled_element_by_element(allocation):
                continue
            if replay.shape_read.get(id(allocation.node)) and not replay.value_read.get(id(allocation.node)):
                continue  # read, and only for its shape: `x = torch.FloatTensor(10, 3, 4); x.size()`
            if replay.value_read.get(id(allocation.node)) is False and allocation.keys <= replay.dropped:
                continue  # `x = torch.cuda.FloatTensor(n, m); del x`: memory reserved, its values never read
            if allocation.size_parameter is not None and not self._passed_ints(*allocation.size_parameter):
                continue
            attributes = {key[2] for key in allocation.keys if key[0] == "attr"}
            if attributes and (allocation.class_id in replay.inherited or replay.initializes(allocation)
                               or attributes & written_attributes):
                continue
            call = self.ctx.code(allocation.node.func)
            if allocation.buffer:
                # `values[1:]` after a loop that writes from row 1 reads no garbage
                if any(replay.first_rows_read.get(key, start) < start for key, start in replay.written_from.items()
                       if key in allocation.keys):
                    self.report(allocation.node, _BUFFER_MESSAGE.format(call=call))
                continue
            if allocation.empty:
                # a file with a model class built on a framework's base (transformers' PreTrainedModel, diffusers'
                # ModelMixin) is one whose weights that framework loads or initializes, layers included
                if initialized_by_importer is None and not replay.pretrained:
                    initialized_by_importer = _initialized_by_importer(self.ctx.filename)
                if not replay.pretrained and not initialized_by_importer:
                    self.report(allocation.node, _EMPTY_MESSAGE.format(call=call))
                continue
            fix = self._value_fix(allocation) if allocation.used_as_number else allocation.fix
            self.report(allocation.node, _MESSAGE.format(call=call), fix or allocation.fix)


# What a module that imports a model may do to initialize its parameters: `model.apply(init_weights)`,
# `nn.init.normal_(...)`, a checkpoint or pretrained weights loaded, `reset_parameters()`.
_INITIALIZES = re.compile(r"\.apply\(|\binit\.\w+_\(|load_state_dict\(|from_pretrained\(|reset_parameters\(")


def _initialized_by_importer(filename: str) -> bool:
    """A module of the project that imports this file may initialize its parameters; unknown counts as may."""
    texts = importers(filename)
    return texts is None or any(_INITIALIZES.search(text) for text in texts)


class _Replay:
    """The allocations of the file and what became of them, worked out from what the visits saw, in order."""

    def __init__(self, events: list[tuple], passes: Callable[[tuple], bool]) -> None:
        """`passes`: whether a "written unless" event's condition holds (then it writes nothing)."""
        self.allocations: list[_Allocation] = []
        self.by_key: dict[Key, list[_Allocation]] = {}
        self.written: set[Key] = set()  # written, or handed to code that may write it
        # id() of an allocation bound to local names -> whether a read of it used its values ...
        self.value_read: dict[int, bool] = {}
        self.shape_read: dict[int, bool] = {}  # ... and whether one read its shape, type or device
        # id() of `x2 = torch.squeeze(x1)` -> the allocations x2 is computed from.
        self.derived: dict[int, set[int]] = {}
        self.partial: dict[Key, set[int]] = {}  # elements written at literal indices: `t[0] = a` leaves t[1]
        self.written_from: dict[Key, int] = {}  # the first row a counting loop writes, when not 0
        self.first_rows_read: dict[Key, int] = {}  # the first row a read of a name in `written_from` may take
        # id() of a class (None: any class) -> the ranks of the parameters a loop over them initializes (None: all)
        self.classes_initialized: dict[int | None, frozenset[int] | None] = {}
        # the same for the loops that reach the parameters of the modules the class holds: over `self.parameters()`
        self.held_initialized: dict[int | None, frozenset[int] | None] = {}
        self.inherited: set[int] = set()  # classes with a base from another module, which may initialize them
        self.class_ids: dict[str, list[int]] = {}  # the file's classes by name
        self.constructs: dict[int, frozenset[str]] = {}  # id() of a class -> the names it calls in its body
        self.pretrained = False  # a class of the file is built on a framework that loads or initializes weights
        self.dropped: set[Key] = set()  # local names deleted with `del`
        self.literal_names: dict[Key, list[_Allocation]] = {}  # names holding a `torch.Tensor(3)`
        for event in events:  # most are uses of names, which matter only once a literal size was allocated
            kind = event[0]
            if kind == "use":
                if self.literal_names:
                    self.used(event[1], event[2])
            elif kind == "rows":
                pass  # half the events: they matter only for a name a loop writes from a later row (below)
            elif kind == "read":
                self.read(*event[1:])
            elif kind == "alias":
                self.aliased(event[1], event[2])
            elif kind == "written":
                self.written.add(event[1])
            elif kind == "written unless":
                if not passes(event[2]):
                    self.written.add(event[1])
            elif kind == "allocation":
                self.allocated(*event[1:])
            elif kind == "partial":
                self.partial.setdefault(event[1], set()).add(event[2])
            elif kind == "from":
                self.written_from[event[1]] = min(event[2], self.written_from.get(event[1], event[2]))
            elif kind == "initialized":
                self.initialized(self.classes_initialized, event[1], event[2])
                if event[3]:
                    self.initialized(self.held_initialized, event[1], event[2])
            elif kind == "pretrained":
                self.pretrained = True
            elif kind == "class":
                self.class_ids.setdefault(event[1], []).append(event[2])
                self.constructs[event[2]] = event[3]
            elif kind == "dropped":
                self.dropped.add(event[1])
            else:  # "inherited"
                self.inherited.add(event[1])
        for event in events if self.written_from else ():
            if event[0] == "rows" and event[1] in self.written_from:
                self.first_rows_read[event[1]] = min(event[2], self.first_rows_read.get(event[1], event[2]))

    def allocated(self, node: cst.Call, keys: frozenset[Key], class_id: int | None, fix: Fix | None,
                  literal: int | None, used_as_number: bool | None,
                  size_parameter: tuple[cst.FunctionDef, str] | None, empty: bool, buffer: bool,
                  rank: int | None) -> None:
        allocation = _Allocation(node, set(keys), class_id, fix, literal, used_as_number, size_parameter, empty,
                                 buffer, rank)
        if literal is not None:
            for key in keys:
                if key[0] == "local":
                    self.literal_names.setdefault(key, []).append(allocation)
        self.allocations.append(allocation)
        if keys and all(key[0] == "local" for key in keys):
            self.value_read[id(node)] = False  # no read yet
        for key in keys:
            self.by_key.setdefault(key, []).append(allocation)

    @staticmethod
    def initialized(classes: dict[int | None, frozenset[int] | None], class_id: int | None,
                    ranks: frozenset[int] | None) -> None:
        known = classes.get(class_id, frozenset())
        classes[class_id] = None if known is None or ranks is None else known | ranks

    def initializes(self, allocation: _Allocation) -> bool:
        """A loop over the parameters of the allocation's class, of a class of the file that constructs it (in
        turn), or of any model initializes it: it writes every parameter, or its guard lets the allocation's rank
        through (`if p.dim() > 1:` skips a 1-d bias). CRIPAC-DIG/SR-GNN's `SessionGraph.reset_parameters()` loops
        over `self.parameters()`, its `GNN`'s legacy `torch.Tensor` weights among them."""
        holders = self._holders(allocation.class_id)
        for classes, class_id in ((self.classes_initialized, allocation.class_id), (self.classes_initialized, None),
                                  *((self.held_initialized, holder) for holder in holders[1:])):
            if class_id not in classes:
                continue
            ranks = classes[class_id]
            if ranks is None or allocation.rank is None or min(allocation.rank, _MAX_RANK) in ranks:
                return True
        return False

    def _holders(self, class_id: int | None) -> list[int | None]:
        """The class and the classes of the file that construct it, directly or through one another."""
        found: list[int | None] = [class_id]
        for held in found:
            name = next((name for name, ids in self.class_ids.items() if held in ids), None)
            found += [holder for holder, names in self.constructs.items() if name in names and holder not in found]
        return found

    def used(self, key: Key, numeric: bool) -> None:
        for allocation in self.literal_names.get(key, ()):
            allocation.used_as_number = numeric and allocation.used_as_number is not False

    def read(self, statement: cst.CSTNode, value: cst.Call, use: bool | cst.Assign) -> None:
        """Remember how a name bound to an allocation (or to a tensor computed from one) is read: for its shape,
        type or device only (`x.size()`, `torch.squeeze(x).shape`), or for its values (anything else)."""
        if not self.value_read:
            return
        origins = self.derived.get(id(statement))
        if origins is None:
            if id(value) not in self.value_read:
                return
            origins = {id(value)}
        if type(use) is cst.Assign:  # a name bound to a tensor computed from it: its own reads decide
            self.derived[id(use)] = origins
            return
        for origin in origins:
            if use:
                self.value_read[origin] = True
            else:
                self.shape_read[origin] = True

    def aliased(self, source: Key, key: Key) -> None:
        for allocation in list(self.by_key.get(source, ())):
            allocation.keys.add(key)
            self.by_key.setdefault(key, []).append(allocation)

    def filled_element_by_element(self, allocation: _Allocation) -> bool:
        """`t = torch.Tensor(2); t[0] = a; t[1] = b`: every element of a literal size written; `states[0] = h0`
        with `states[t] = h` in `for t in range(1, T):`, every row a loop starting past 0 leaves."""
        if any(set(range(start)) <= self.partial.get(key, set()) for key, start in self.written_from.items()
               if key in allocation.keys):
            return True
        if allocation.literal is None:
            return False
        return any(set(range(allocation.literal)) <= self.partial.get(key, set()) for key in allocation.keys)


_SCALAR_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)


def _numeric_use(parent: cst.CSTNode | None) -> bool:
    """The value is read as a number: an operand of scalar arithmetic (not `@`) or of a comparison."""
    kind = type(parent)
    if kind is cst.BinaryOperation:
        return type(parent.operator) in _SCALAR_ARITHMETIC
    return kind is cst.UnaryOperation or kind is cst.Comparison or kind is cst.ComparisonTarget


# base classes of models whose weights their framework loads or initializes (transformers, diffusers and their ports)
_PRETRAINED = re.compile(r".*(PreTrainedModel|PretrainedModel|ModelMixin)$")


def _has_foreign_base(ctx: Context, class_def: cst.ClassDef) -> bool:
    """A base class from outside torch and this file (`class Model(BasePreTrainedModel)`, a relative import):
    its `__init__` or weight initialisation, which we can't see, may fill the attributes."""
    for base in class_def.bases:
        qualname = ctx.qualname(base.value)
        if qualname is not None:
            if qualname.split(".", 1)[0] != "torch":
                return True
            continue
        binding = ctx.binding(base.value)
        if binding is None or binding.kind != "class":
            return True
    return False


# Attributes and methods that read a tensor's shape, type or device, never its values.
_SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "device", "is_cuda", "ndim", "layout", "requires_grad"})
_SHAPE_METHODS = frozenset({"size", "dim", "numel", "nelement", "type", "element_size", "get_device",
                            "is_contiguous", "ndimension"})


def _read_use(ctx: Context, ancestors: list[cst.CSTNode]) -> bool | cst.Assign:
    """How the name being visited is read: False for its shape only, through tensors computed from it
    (`torch.bmm(x1, x2).size()`, `x1.transpose(1, 2).shape`); the assignment of a name to a tensor computed
    from it (`x2 = torch.squeeze(x1)`), whose reads decide; True for anything else."""
    i = len(ancestors) - 2
    current = ancestors[-1]
    while i >= 1:
        parent, grandparent = ancestors[i], ancestors[i - 1]
        kind = type(parent)
        if kind is cst.Attribute and parent.value is current:
            called = type(grandparent) is cst.Call and grandparent.func is parent
            name = parent.attr.value
            if not called:
                return name not in _SHAPE_ATTRIBUTES
            if name in _SHAPE_METHODS:
                return False
            current, i = grandparent, i - 2  # `x.t()`, `x.view(...)`: a tensor computed from it
            continue
        if kind is cst.Arg and type(grandparent) is cst.Call and (ctx.qualname(grandparent.func) or "").startswith(
                "torch."):
            current, i = grandparent, i - 2
            continue
        if kind is cst.Assign and len(parent.targets) == 1 and type(parent.targets[0].target) is cst.Name \
                and current is not ancestors[-1]:
            return parent
        return True
    return True


def _writes_or_ignores_values(method: str) -> bool:
    """In-place writers (`uniform_`, `fill_`, `copy_`) and `new*` (a tensor kept only for its dtype and device);
    not in-place arithmetic (`add_`, `mul_`), which reads the garbage it updates."""
    if method in _READING:
        return False
    return method.endswith("_") and method not in _NOT_WRITING or method.startswith("new")


_COUNTING = frozenset({"range", "builtins.range", "torch.arange", "numpy.arange"})


def _counts(ctx: Context, binding: Binding) -> bool:
    """The loop variable counts through positions: `for i in range(n)`, `for i, x in enumerate(xs)`, backwards
    too (`for i in reversed(range(n))`, as returns and advantages are computed)."""
    iterable = binding.value
    if type(iterable) is cst.Call and dotted_name(iterable.func) == "reversed" and len(iterable.args) == 1:
        iterable = iterable.args[0].value
    if type(iterable) is not cst.Call:
        return False
    name = ctx.qualname(iterable.func) or dotted_name(iterable.func)
    return name in _COUNTING or name in ("enumerate", "builtins.enumerate") and binding.index == 0


def _range_start(ctx: Context, iterable: cst.BaseExpression | None) -> int | None:
    """The first value of `range(n)` (0) or `range(k, n)` with a literal k, in either order (`reversed(...)`)."""
    if type(iterable) is cst.Call and dotted_name(iterable.func) == "reversed" and len(iterable.args) == 1:
        iterable = iterable.args[0].value
    if type(iterable) is not cst.Call or ctx.qualname(iterable.func) not in ("builtins.range", None) \
            or dotted_name(iterable.func) != "range" or not 1 <= len(iterable.args) <= 3:
        return None
    if len(iterable.args) == 1:
        return 0
    first = iterable.args[0].value
    return first.evaluated_value if type(first) is cst.Integer else None


def _first_row(read: cst.Subscript) -> int | None:
    """The first row `x[...]` takes: k for `x[k]` and `x[k:]` with a literal k >= 0, 0 for `x[:n]`; None when
    computed (`x[t]`, `x[-1]`)."""
    first = read.slice[0].slice if read.slice else None
    if type(first) is cst.Index:
        return first.value.evaluated_value if type(first.value) is cst.Integer else None
    if type(first) is cst.Slice:
        if first.lower is None:
            return 0
        return first.lower.evaluated_value if type(first.lower) is cst.Integer else None
    return None


def _literal_index(target: cst.Subscript) -> int | None:
    """`t[0] = ...`, `t[1, :] = ...`: the literal first index of a write that covers part of a tensor, else None
    (a computed index, `t[i]` in a loop, may cover all of it; `t[:]` and `t[...]` do)."""
    if type(target.value) is not cst.Name or not target.slice:
        return None
    first = target.slice[0].slice
    if type(first) is not cst.Index or type(first.value) is not cst.Integer:
        return None
    for element in target.slice[1:]:
        inner = element.slice
        if type(inner) is cst.Index and type(inner.value) is not cst.Integer:
            return None
    return first.value.evaluated_value


def _unpacked_into(statement: cst.CSTNode, container: cst.Tuple | cst.List,
                   element: cst.Element) -> cst.BaseExpression | None:
    """`a, b = x, y`: the target that receives `element` of the assigned tuple."""
    if type(statement) is not cst.Assign or len(statement.targets) != 1 or statement.value is not container:
        return None
    target = statement.targets[0].target
    if type(target) not in (cst.Tuple, cst.List) or len(target.elements) != len(container.elements):
        return None
    if any(type(e) is cst.StarredElement for e in target.elements):
        return None
    return target.elements[container.elements.index(element)].value


def _registered(call: cst.Call, arg: cst.Arg) -> str | None:
    """`self.register_buffer("name", <allocation>)` holds it in `self.name`."""
    func = call.func
    if (type(func) is cst.Attribute and _is_self(func.value)
            and func.attr.value in ("register_buffer", "register_parameter")
            and len(call.args) >= 2 and call.args[1] is arg):
        return string_value(call.args[0].value)
    return None


def _is_self(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "self"


def _is_nan(ctx: Context, expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.Call and is_builtin_call(ctx, expr, "float") and expr.args:
        return string_value(expr.args[0].value) in ("nan", "NaN")
    qualname = ctx.qualname(expr)
    return qualname is not None and qualname.rsplit(".", 1)[-1] in ("nan", "NaN", "NAN")


def _unwrap(ctx: Context, expr: cst.BaseExpression) -> cst.BaseExpression:
    """The tensor a value derives from: `Parameter(w)`, `w.to(device)`, `w.view(n, -1)` -> `w`."""
    for _ in range(8):
        if type(expr) is not cst.Call:
            break
        func = expr.func
        if ctx.qualname(func) in _PARAMETER and expr.args:
            expr = expr.args[0].value
        elif type(func) is cst.Attribute and ctx.qualname(func) is None and not _is_self(func.value):
            expr = func.value
        else:
            break  # `self.make(n)` is a method of the file, followed by what it returns
    return expr


# Ranks are told apart up to this one: a tensor of more dimensions counts as one of this many.
_MAX_RANK = 8
_ALL_RANKS = frozenset(range(_MAX_RANK + 1))
_RANK_METHODS = frozenset({"dim", "ndimension"})
_COMPARED = {cst.GreaterThan: int.__gt__, cst.GreaterThanEqual: int.__ge__, cst.LessThan: int.__lt__,
             cst.LessThanEqual: int.__le__, cst.Equal: int.__eq__, cst.NotEqual: int.__ne__}
_FLIPPED = {cst.GreaterThan: cst.LessThan, cst.GreaterThanEqual: cst.LessThanEqual, cst.LessThan: cst.GreaterThan,
            cst.LessThanEqual: cst.GreaterThanEqual, cst.Equal: cst.Equal, cst.NotEqual: cst.NotEqual}


def _rank(sizes: list[cst.Arg] | None) -> int | None:
    """The number of dimensions the sizes of an allocation spell: 4 for `torch.Tensor(o, i, k, k)` or
    `torch.empty((o, i))`'s 2; None when a starred size hides it."""
    if not sizes:
        return None
    if len(sizes) == 1 and type(sizes[0].value) in (cst.Tuple, cst.List):
        elements = sizes[0].value.elements
        return None if any(type(element) is cst.StarredElement for element in elements) else len(elements)
    return len(sizes)


def _iterates_parameters(iterable: cst.BaseExpression | None, of_self: bool = False) -> bool:
    """`model.parameters()`, `model.named_parameters()`: a loop that can initialize every parameter of a model (of
    `self`, with `of_self`: those of the modules it holds included)."""
    return type(iterable) is cst.Call and type(iterable.func) is cst.Attribute \
        and iterable.func.attr.value in ("parameters", "named_parameters") \
        and (not of_self or _is_self(iterable.func.value))


def _ranks_written(ctx: Context, binding: Binding) -> frozenset[int] | None:
    """The ranks of the parameters that a write of the loop variable at the node being visited may reach, from the
    rank tests it sits under: `if p.dim() > 1:` (the body), `else:` (the rest), `if p.dim() == 1: continue` before
    it. None: no rank test restricts it."""
    loop, name = binding.statement, binding.name
    ancestors = ctx.ancestors
    if loop not in ancestors:
        return None
    at = ancestors.index(loop)
    ranks = _ALL_RANKS
    for index in range(at + 1, len(ancestors) - 1):
        node, child = ancestors[index], ancestors[index + 1]
        if type(node) is not cst.If:
            continue
        if child is node.body:
            ranks &= _ranks_when(node.test, name)
        elif child is node.orelse and (passed := _rank_test(node.test, name)) is not None:
            ranks &= _ALL_RANKS - passed
    if at + 2 < len(ancestors) and type(body := ancestors[at + 1]) is cst.IndentedBlock:
        for statement in body.body[:body.body.index(ancestors[at + 2])]:
            if type(statement) is cst.If and statement.orelse is None and _only_continues(statement.body) \
                    and (skipped := _rank_test(statement.test, name)) is not None:
                ranks &= _ALL_RANKS - skipped
    return None if ranks == _ALL_RANKS else ranks


def _only_continues(block: cst.BaseSuite) -> bool:
    statements = block.body
    if type(block) is cst.IndentedBlock:
        if len(statements) != 1 or type(statements[0]) is not cst.SimpleStatementLine:
            return False
        statements = statements[0].body
    return len(statements) == 1 and type(statements[0]) is cst.Continue


def _ranks_when(test: cst.BaseExpression, name: str) -> frozenset[int]:
    """The ranks a test lets through, at most: each rank test of an `and` restricts them; anything else does not."""
    if type(test) is cst.BooleanOperation and type(test.operator) is cst.And:
        return _ranks_when(test.left, name) & _ranks_when(test.right, name)
    passed = _rank_test(test, name)
    return _ALL_RANKS if passed is None else passed


def _rank_test(test: cst.BaseExpression, name: str) -> frozenset[int] | None:
    """The ranks for which a test of the tensor `name`'s rank holds, exactly: `p.dim() > 1`, `p.ndim == 1`,
    `len(p.shape) >= 2`, `not ...`; None for any other test."""
    if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
        passed = _rank_test(test.expression, name)
        return None if passed is None else _ALL_RANKS - passed
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    comparison = test.comparisons[0]
    operator, left, right = type(comparison.operator), test.left, comparison.comparator
    if _is_rank_of(right, name):
        left, right, operator = right, left, _FLIPPED.get(operator, operator)
    if operator not in _COMPARED or not _is_rank_of(left, name) or type(right) is not cst.Integer:
        return None
    compare, bound = _COMPARED[operator], right.evaluated_value
    return frozenset(rank for rank in _ALL_RANKS if compare(rank, bound))


def _is_rank_of(expr: cst.BaseExpression, name: str) -> bool:
    """`p.dim()`, `p.ndimension()`, `p.ndim`, `len(p.shape)`, `len(p.size())` for the name `name`."""
    if type(expr) is cst.Call and type(expr.func) is cst.Name and expr.func.value == "len" and len(expr.args) == 1:
        shape = expr.args[0].value
        if type(shape) is cst.Call and not shape.args:
            shape = shape.func
        return type(shape) is cst.Attribute and shape.attr.value in ("shape", "size") \
            and type(shape.value) is cst.Name and shape.value.value == name
    if type(expr) is cst.Call and not expr.args and type(expr.func) is cst.Attribute \
            and expr.func.attr.value in _RANK_METHODS:
        expr = expr.func.value
    elif type(expr) is cst.Attribute and expr.attr.value == "ndim":
        expr = expr.value
    else:
        return False
    return type(expr) is cst.Name and expr.value == name
