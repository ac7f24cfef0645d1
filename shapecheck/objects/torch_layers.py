"""Which torch.nn layers own weights, for the rules that care whether a layer's parameters matter (SC207, SC212,
SC216, SC217), and the dropouts whose rate is 0 unless one is passed (SC210, SC216)."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.syntax import last_name

# torch.nn layers that own parameters or buffers as built by default. Parameter-free layers (`ReLU`, `Dropout`,
# `Identity`) are not among them.
WEIGHTED = frozenset({
    "Linear", "Bilinear", "LazyLinear", "Embedding", "EmbeddingBag", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d",
    "ConvTranspose2d", "ConvTranspose3d", "LazyConv1d", "LazyConv2d", "LazyConv3d", "BatchNorm1d", "BatchNorm2d",
    "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "RMSNorm", "LocalResponseNorm", "PReLU", "RNN", "LSTM",
    "GRU", "RNNCell", "LSTMCell", "GRUCell", "MultiheadAttention", "Transformer", "TransformerEncoder",
    "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
})
CONTAINERS = frozenset({"Sequential", "ModuleList", "ModuleDict"})
# torch.nn layers without parameters: activations, pooling, dropout, reshaping, padding.
PARAMETER_FREE = frozenset({
    "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh", "Softmax",
    "LogSoftmax", "Softmin", "Softplus", "Softsign", "Softshrink", "Hardshrink", "Hardtanh", "Hardswish",
    "Hardsigmoid", "Tanhshrink", "Threshold", "LogSigmoid", "GLU", "Identity", "Flatten", "Unflatten", "Dropout",
    "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "MaxPool1d", "MaxPool2d",
    "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d",
    "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle",
    "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d",
    "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d",
    "CircularPad1d", "CircularPad2d", "CircularPad3d", "CosineSimilarity", "PairwiseDistance", "Fold", "Unfold",
})


def torch_layer(ctx: Context, call: cst.Call) -> str | None:
    """The class name of the torch.nn layer a call builds (`nn.Linear(4, 2)` -> "Linear"); None for anything else."""
    qualname = ctx.qualname(call.func) or ""
    if not qualname.startswith("torch.nn.") or qualname.startswith("torch.nn.functional."):
        return None
    return qualname.rsplit(".", 1)[-1]


def dropout_off_by_default(class_def: cst.ClassDef, call: cst.Call) -> bool:
    """`call`, in `class_def`, builds a dropout of rate 0 (`nn.Dropout(0.0)`), or of a constructor parameter
    defaulting to 0 (Swin's `nn.Dropout(attn_drop)` of `attn_drop=0.`): it drops nothing unless a rate is passed."""
    args = [arg for arg in call.args if arg.keyword is None or arg.keyword.value == "p"]
    if args and is_zero_literal(args[0].value):
        return True
    rate = dropout_rate(call)
    init = next((node for node in class_def.body.body if type(node) is cst.FunctionDef
                 and node.name.value == "__init__"), None)
    return rate is not None and init is not None and any(
        param.name.value == rate and param.default is not None and is_zero_literal(param.default)
        for param in init.params.params)


def dropout_rate(call: cst.Call) -> str | None:
    """The constructor parameter a dropout module's rate names: `nn.Dropout(dropout)`, `nn.Dropout(p=self.p)`."""
    if last_name(call.func) != "Dropout":
        return None
    args = [arg for arg in call.args if arg.keyword is None or arg.keyword.value == "p"]
    rate = args[0].value if args else None
    if type(rate) is cst.Attribute and type(rate.value) is cst.Name and rate.value.value == "self":
        return rate.attr.value
    return rate.value if type(rate) is cst.Name else None


def is_zero_literal(expr: cst.BaseExpression) -> bool:
    """The literal `0` or `0.0`."""
    return type(expr) in (cst.Integer, cst.Float) and float(expr.value) == 0  # type: ignore[attr-defined]
