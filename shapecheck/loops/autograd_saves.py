"""What autograd saves for backward, after torch's `tools/autograd/derivatives.yaml`, for the saved-tensor analysis
(`loops.saved_tensors`, SC216).

An op whose derivative formula reads `result` keeps its output: `sigmoid` (`sigmoid_backward(grad, result)`),
`tanh`, `exp` (`grad * result`), `_softmax` / `_log_softmax` (`_softmax_backward_data(grad, result, ...)`), `relu`
(`threshold_backward(grad, result, 0)`), `sqrt`, `rsqrt`. An op whose formula reads its inputs keeps them: `mul`
keeps each factor for the other's gradient, `div` keeps the divisor (and the dividend for the divisor's gradient),
`mm`/`bmm`/`matmul` keep each operand for the other's gradient (so does a two-operand `einsum`, which
contracts through `bmm` or `mul` of views of its operands), `pow` keeps its base, and a layer with weights
(`linear`, `convolution`, the norms) keeps its input for the weight's gradient. `add`, `sub`, `cat`, `sum`, `mean` and
`masked_fill` keep nothing a later in-place op could spoil (`masked_fill` keeps only the mask); `gelu`, `silu`,
`leaky_relu`, `elu`, `log` and `clamp` keep their input, not their output.

`split`, `chunk` and `unbind` return several views of one tensor; autograd refuses an in-place op on any of them (or
on a view of one) while their base requires grad: "Output 0 of Split is a view and is being modified inplace. This
view is the output of a function that returns multiple views." (`tensor_split` and `hsplit` are not so marked.)
"""

from __future__ import annotations

# Functions whose output autograd saves.
SAVES_OUTPUT = frozenset({
    "torch.sigmoid", "torch.nn.functional.sigmoid", "torch.special.expit", "torch.tanh", "torch.nn.functional.tanh",
    "torch.exp", "torch.softmax", "torch.nn.functional.softmax", "torch.special.softmax", "torch.log_softmax",
    "torch.nn.functional.log_softmax", "torch.special.log_softmax", "torch.relu", "torch.nn.functional.relu",
    "torch.sqrt", "torch.rsqrt",
})
SAVES_OUTPUT_METHODS = frozenset({"sigmoid", "tanh", "exp", "softmax", "log_softmax", "relu", "sqrt", "rsqrt"})
SAVES_OUTPUT_LAYERS = frozenset({"Sigmoid", "Tanh", "Softmax", "LogSoftmax", "ReLU"})
# Layers that save their input for their weights' gradient (an `Embedding`'s input is integer indices).
SAVES_INPUT_LAYERS = frozenset({
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "RMSNorm",
})
# Functions and methods returning several views that autograd forbids changing in place (see above).
MULTI_VIEW = frozenset({"torch.split", "torch.chunk", "torch.unbind"})
MULTI_VIEW_METHODS = frozenset({"split", "chunk", "unbind"})
# Products that save each operand for the other's gradient: `torch.mul(a, b)`, `a.matmul(b)`.
PRODUCTS = frozenset({"torch.mul", "torch.matmul", "torch.mm", "torch.bmm"})
PRODUCT_METHODS = frozenset({"mul", "matmul", "mm", "bmm"})

# Tensor methods that modify their receiver in place and bump its version counter.
IN_PLACE_METHODS = frozenset({
    "add_", "sub_", "mul_", "div_", "pow_", "neg_", "abs_", "exp_", "log_", "sqrt_", "sigmoid_", "tanh_", "relu_",
    "clamp_", "clamp_min_", "clamp_max_", "clip_", "masked_fill_", "masked_scatter_", "index_fill_", "index_add_",
    "index_copy_", "index_put_", "scatter_", "scatter_add_", "fill_", "zero_", "copy_", "addcmul_", "addcdiv_",
    "floor_", "ceil_", "round_", "fill_diagonal_", "nan_to_num_", "lerp_", "reciprocal_", "square_",
})
# Functions that modify their first argument in place; the others do with `inplace=True`.
IN_PLACE_FUNCTIONS = frozenset({"torch.relu_", "torch.nn.functional.relu_", "torch.sigmoid_", "torch.tanh_",
                                "torch.exp_", "torch.clamp_", "torch.nn.functional.elu_",
                                "torch.nn.functional.leaky_relu_"})

# Tensor methods whose result is outside the graph, or no tensor at all.
DETACHING = frozenset({
    "detach", "item", "tolist", "numpy", "argmax", "argmin", "argsort", "size", "dim", "numel", "long", "int", "bool",
    "byte", "eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "isfinite", "nonzero", "new_zeros", "new_ones",
    "new_empty", "new_full", "new_tensor", "sign", "round", "floor", "ceil", "zero_", "data_ptr", "stride",
    "is_contiguous", "__len__",
})
# torch functions whose result is outside the graph whatever their arguments.
NOT_DIFFERENTIABLE = frozenset({
    "torch.zeros_like", "torch.ones_like", "torch.empty_like", "torch.full_like", "torch.rand_like",
    "torch.randn_like", "torch.randint_like", "torch.argmax", "torch.argmin", "torch.argsort", "torch.eq", "torch.ne",
    "torch.gt", "torch.lt", "torch.ge", "torch.le", "torch.isnan", "torch.isinf", "torch.isfinite", "torch.nonzero",
    "torch.sign", "torch.round", "torch.floor", "torch.ceil", "torch.no_grad",
})
