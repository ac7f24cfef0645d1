"""Which torch.nn layers own weights, for the rules that care whether a layer's parameters matter (SC207, SC212,
SC216, SC217)."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine.context import Context

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
