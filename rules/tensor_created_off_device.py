"""SC212 tensor-created-off-device-in-forward: `torch.zeros(...)` without `device=` in a module's `forward`, mixed
with its inputs or parameters, in a module that is moved to a device."""

from __future__ import annotations

import functools

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.engine.syntax import assigned_attributes, dotted_name, is_self_attribute, last_name
from shapecheck.engine.walker import children, parent_map, walk, walk_statements
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import helper_callers, self_calls
from shapecheck.objects.modules import RETURNS_SELF
from shapecheck.objects.executor import target_names
from shapecheck.objects.stored import assigned_pairs, constructor_arguments
from shapecheck.objects.values import Instance, Mapping, Seq, TorchObject
from shapecheck.shapes.activations import instance_class, is_torch_module_class
from shapecheck.loops.surroundings import lightning_class
from shapecheck.loops.devices import (
    ARITHMETIC, CREATIONS, cpu_creation, creates_on_cpu, default_device_set, follow_tensor, moved_by_importers,
    moves_to_device,
)
from shapecheck.objects.torch_layers import PARAMETER_FREE, torch_layer
from shapecheck.objects.tensor_facts import is_int, string_value
from shapecheck.shapes.evaluator import evaluator

# The LightningModule methods the trainer calls with batches on the module's device.
_LIGHTNING_STEPS = ("training_step", "validation_step", "test_step", "predict_step")
# Torch functions that combine their tensor arguments (they must share a device).
_COMBINING = frozenset({"torch.cat", "torch.stack", "torch.matmul", "torch.bmm", "torch.mm", "torch.where",
                        "torch.einsum", "torch.add", "torch.mul", "torch.max", "torch.min", "torch.maximum",
                        "torch.minimum", "torch.concat", "torch.hstack", "torch.vstack", "torch.masked_select",
                        "torch.gather", "torch.index_select", "torch.stft", "torch.istft", "torch.outer",
                        "torch.ger", "torch.sub", "torch.div", "torch.mv", "torch.dot", "torch.cdist",
                        "torch.tensordot", "torch.kron", "torch.lerp", "torch.addcmul", "torch.polar",
                        "torch.complex", "torch.atan2", "torch.pow"})
# Tensor methods whose tensor arguments must be on the receiver's device (a CPU index for `x[idx]` is fine, a CPU
# mask for `x.masked_fill(mask, 0)` raises).
_COMBINING_METHODS = frozenset({"masked_fill", "masked_fill_", "masked_select", "masked_scatter", "masked_scatter_",
                                "gather", "index_select", "add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_",
                                "matmul", "mm", "bmm", "outer", "ger", "mv", "dot", "lerp", "lerp_", "pow",
                                "atan2"})
# nn.Module's own methods that store what they are handed, on whatever device it is: not a submodule's run.
_STORING = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})
# What a tensor says of itself, wherever it is: reading it mixes it with nothing.
_METADATA = frozenset({"size", "shape", "dim", "ndim", "numel", "dtype", "device"})
# Comparisons of objects, not of tensor elements.
_IDENTITY = (cst.Is, cst.IsNot, cst.In, cst.NotIn)


# A GPT-style attention whose causal mask is built in `forward`; the lines after the scores vary.
_CAUSAL_ATTENTION = """
        import torch
        import torch.nn as nn
        class CausalSelfAttention(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.qkv = nn.Linear(d, 3 * d)
            def forward(self, x):
                B, T, C = x.shape
                q, k, v = self.qkv(x).split(C, dim=2)
                att = q @ k.transpose(-2, -1)%s
        model = CausalSelfAttention(64).cuda()
        """


class TensorCreatedOffDevice(Rule):
    code = "SC212"
    name = "tensor-created-off-device-in-forward"
    message = ("`{call}` makes a CPU tensor in `forward` and mixes it with the module's inputs or parameters, but "
               "the module is moved to a device: \"Expected all tensors to be on the same device\"; pass "
               "`device=x.device` (or use `torch.zeros_like` / `x.new_zeros`)")
    triggers = ("def forward", "LightningModule")
    # The visits gather the classes and the parameters `.to(device)` moves; `finish` decides with the whole file, so
    # the editor server keeps each statement's part between edits.
    scope = "statement"
    gathered = ("_moved", "_moved_parameters")
    docs = """
        ## What it does
        Finds `torch.zeros/ones/randn/rand/arange/full/tensor(...)` called without `device=` inside the `forward`
        of an `nn.Module` (or a method `forward` calls), whose result is combined with the module's inputs or
        parameters (arithmetic, an elementwise comparison such as `torch.arange(t)[None] >= lengths[:, None]`,
        `torch.cat`/`stack`, arithmetic with a registered buffer or an `nn.Parameter` (`torch.arange(t)[:, None] *
        self.inv_freq`), a mask or operand of a method of such a tensor such as
        `scores.masked_fill(mask, 0)`, or an argument of a call of a torch.nn layer with weights such as
        `self.lstm(x, (h0, c0))`), in a
        module that is moved to a device in the same file or by a module of the project that imports it
        (`model = Net(cfg).to(device)` or `build_model(cfg).cuda()` of a factory of its module, in `train.py` beside
        `model.py`, or through the packages (up to three) whose `__init__` re-exports it; in the file: `Net().to(device)`, `model.cuda()`, `build_model(cfg)
        .cuda()` of a factory returning one, a helper's or a trainer's `model.to(device)` of the model its callers
        hand it), a submodule of such a module (`self.encoder = Encoder(...)`, an `nn.ModuleList` of them that a
        helper builds, or a module handed to its
        constructor: `Seq2Seq(Encoder(...), decoder).to(device)`; also `self.pos = PositionalEncoding(d)` in a model
        class of a project module importing it, or in a class of that module another holds in turn (an `Encoder`
        of the module's `Seq2Seq`), where that model is moved there or by its own importers), a LightningModule (its trainer moves it; its
        `training_step` / `validation_step` / ... and the methods they call count as `forward` does), or a module
        meant to be
        moved (the class handles a `device` elsewhere). Hidden-state initialisation is the classic. The new tensor
        is followed through arithmetic with constants, one-tensor torch functions (`torch.exp(-math.log(1e4) *
        torch.arange(half) / half)`), einops' `rearrange`/`repeat`, indexing (`freqs[None, :]`,
        `torch.arange(t)[None]` bound to a name) and a comparison with a constant (`causal == 0`, a mask built by
        `torch.tril(torch.ones(t, t))[None, None]`).
        A plain function of the file that `forward` hands its inputs (`timestep_embedding(t, dim)`) is read as a method
        it calls is. It also finds a tensor `__init__` makes without a device and keeps as a plain attribute
        (`self.pe = pe.unsqueeze(0)` of `pe = torch.zeros(max_len, d)`) that `forward` mixes with its inputs: `.to()`
        moves parameters and buffers, not attributes (unless assigned again elsewhere in the file).

        ## Why is this bad?
        Factory functions create on the CPU unless told otherwise, whatever device the module is on. On a GPU the
        first operation that mixes the new tensor with the input raises "Expected all tensors to be on the same
        device"; on the CPU the code works, so the bug ships. The primer: "Tensors must be on the same device for
        an op to work. Mixing CPU and MPS tensors raises. Move both to the same device before combining"; and its
        creation idiom `x = torch.randn(1000, 1000, device=device)`, or "`_like` variants copy shape/dtype/device
        from an existing tensor". The course chapter: "Trying cpu_tensor + gpu_tensor raises RuntimeError:
        Expected all tensors to be on the same device".

        Not reported: a creation with `device=`, moved on the spot (`.to(x.device)`, `.cuda()`, `.type_as(x)`)
        or later, a 0-d `torch.tensor(0.5)` (a CPU scalar mixes with CUDA tensors), a tensor used only as an
        index or stored (`self.register_buffer("flag", torch.Tensor([False]))`), one a helper method returns that its
        callers only use so, directly or through up to three more methods of the class, `torch.normal(mean, std)` of
        tensors (it samples on their device), one run through a parameter-free submodule and moved after
        (`self.drop(torch.ones(n, d)).to(self.device)`: a dropout layer has no weights on the device), one handed
        to a submodule that is not a torch.nn layer (its own `forward` decides what it meets: a language model's
        lengths for `pack_padded_sequence` belong on the CPU), modules that are never moved, and any creation where
        the program sets a default device (`torch.set_default_tensor_type("torch.cuda.FloatTensor")`,
        `torch.set_default_device(...)`) in the module, a first-party module it imports, a module importing it or
        one that module imports: the factories then build there.

        ## Example
        ```python
        def forward(self, x):
            h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)
            out, _ = self.lstm(x, (h0, h0))
        ```

        ## Use instead
        ```python
        def forward(self, x):
            h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size, device=x.device)
            out, _ = self.lstm(x, (h0, h0))
        ```
    """
    VALID = [
        # powerful-gnns' GraphCNN: a helper method returns CPU neighbour indices, which `forward` hands through two
        # methods to an index of a CUDA tensor (allowed: the index is copied to the tensor's device).
        """
        import torch
        import torch.nn as nn
        class Pool(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
            def neighbors(self, graphs):
                return torch.LongTensor([[0, 1], [1, 0]])
            def maxpool(self, h, idx):
                return torch.max(h[idx], dim=1)[0]
            def layer(self, h, idx=None):
                return self.lin(self.maxpool(h, idx))
            def forward(self, graphs, h):
                idx = self.neighbors(graphs)
                return self.layer(h, idx=idx)
        model = Pool().to("cuda")
        """,
        # StarGANv2-VC's ASR decoder: a CPU mask compared with a number held in `self.random_mask` and moved on the
        # spot; the attribute is not the local `random_mask` the mask is then bound to.
        """
        import torch
        import torch.nn as nn
        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embedding = nn.Embedding(10, 4)
            def init_states(self):
                self.random_mask = 0.1
            def forward(self, text_input):
                self.init_states()
                random_mask = (torch.rand(text_input.shape) < self.random_mask).to(text_input.device)
                return self.embedding(text_input.masked_fill(random_mask, 3))
        model = Decoder().to("cuda")
        """,
        # the table registered as a buffer, moved back by hand, or placed where it is read; the helper places its
        # frequencies on the timesteps' device, and a table helper called with sizes only is no input's
        """
        import math
        import torch
        import torch.nn as nn
        def timestep_embedding(t, dim):
            half = dim // 2
            freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device) / half)
            return t[:, None].float() * freqs[None]
        def sinusoids(n, d):
            return torch.sin(torch.arange(n)[:, None] * torch.arange(d)[None])
        class Model(nn.Module):
            def __init__(self, d=32, max_len=512):
                super().__init__()
                self.register_buffer("pe", torch.zeros(1, max_len, d))
                self.table = torch.zeros(1, max_len, d)
                self.scale = torch.ones(1, max_len, d)
            def forward(self, x, t):
                table = sinusoids(x.size(1), x.size(2)).to(x.device)
                x = x + self.pe[:, :x.size(1)] + self.table[:, :x.size(1)] + table
                return x * self.scale.to(x.device)[:, :x.size(1)] + timestep_embedding(t, x.size(-1))
        model = Model().cuda()
        model.table = model.table.cuda()
        """,
        # the compared mask is placed before it meets the scores
        _CAUSAL_ATTENTION % """
                causal = (torch.tril(torch.ones(T, T))[None] == 0).to(x.device)
                pos = torch.arange(T)[None].to(x.device)
                return att.masked_fill(causal, float("-inf")).softmax(-1) @ v + pos""",
        # thuml/Time-Series-Library: sizes unpacked from a shape carry no device, and each mask is moved after the
        # comparisons that build it.
        """
        import torch
        import torch.nn as nn
        class TimeFilter(nn.Module):
            def __init__(self, n_vars):
                super().__init__()
                self.n_vars = n_vars
                self.gate = nn.Linear(8, 3)
            def forward(self, x):
                B, H, L, _ = x.shape
                N = L // self.n_vars
                masks = []
                for k in range(L):
                    S = ((torch.arange(L) % N == k % N) & (torch.arange(L) != k)).to(x.dtype).to(x.device)
                    masks.append(S)
                attns = (torch.ones([B, H, L, L]) / L).type_as(x).to(x.device)
                return self.gate(x) * torch.stack(masks).sum() + attns.sum()
        model = TimeFilter(4).cuda()
        """,
        # Positions compared with a number: the mask comes out of `.tolist()` as Python bools.
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.fc = nn.Linear(d, 2)
            def forward(self, x, n_keep=8):
                keep = (torch.arange(x.size(1)) < n_keep).tolist()
                return self.fc(x[:, keep].mean(1))
        def build(d):
            return Head(d)
        model = build(16).cuda()
        """,
        # huggingface/diffusers' BLIP text model: a helper builds the causal mask on the CPU and its one caller
        # moves it to the hidden states' device
        """
        import torch
        import torch.nn as nn

        class ContextCLIPTextTransformer(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.proj = nn.Linear(dim, dim)

            def forward(self, hidden_states):
                bsz, seq_len, _ = hidden_states.shape
                mask = self._build_causal_attention_mask(bsz, seq_len, hidden_states.dtype).to(hidden_states.device)
                return self.proj(hidden_states) + mask[:, 0, :, :1]

            def _build_causal_attention_mask(self, bsz, seq_len, dtype):
                mask = torch.empty(bsz, seq_len, seq_len, dtype=dtype)
                mask.fill_(torch.finfo(dtype).min)
                mask.triu_(1)
                return mask.unsqueeze(1)

        model = ContextCLIPTextTransformer(16).to("cuda")
        """,
        # LightningModules placing what they create: on `self.device`, or like the batch (`type_as`).
        """
        import torch
        import pytorch_lightning as pl
        class RNN(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.lstm = torch.nn.LSTM(8, 16, 2)
            def init_hidden(self, batch_size):
                shape = (2, batch_size, 16)
                return torch.zeros(*shape, device=self.device), torch.zeros(*shape, device=self.device)
            def training_step(self, batch, batch_idx):
                hidden = self.init_hidden(batch.size(1))
                out, _ = self.lstm(batch, hidden)
                valid = torch.ones(batch.size(1), 16)
                valid = valid.type_as(batch)
                return (out[-1] - valid).pow(2).mean()
        """,
        """
        import torch
        import torch.nn as nn
        class RNN(nn.Module):
            def __init__(self, input_size, hidden_size, num_layers, num_classes):
                super().__init__()
                self.hidden_size, self.num_layers = hidden_size, num_layers
                self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
            def forward(self, x):
                h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
                c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).to(device)
                out, _ = self.lstm(x, (h0, c0))
                return out
        model = RNN(28, 128, 2, 10).to(device)
        """,
        """
        import torch
        import torch.nn as nn
        class GPT(nn.Module):
            def forward(self, idx):
                device = idx.device
                b, t = idx.size()
                pos = torch.arange(0, t, dtype=torch.long, device=device)
                return self.wte(idx) + self.wpe(pos)
        model = GPT().to("cuda")
        """,
        """
        import torch
        import torch.nn as nn
        class Scale(nn.Module):
            def forward(self, x):
                idx = torch.arange(x.size(0))
                return x[idx] * torch.tensor(0.5)
        model = Scale().cuda()
        """,
        """
        import torch
        import torch.nn as nn
        # never moved: a CPU-only module
        class Noise(nn.Module):
            def forward(self, x):
                return x + torch.randn(x.shape)
        model = Noise()
        """,
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def init_hidden(self, batch):
                h = torch.zeros(1, batch, self.hidden)
                return h.to(self.fc.weight.device)
            def forward(self, x):
                return self.gru(x, self.init_hidden(x.size(0)))
        enc = Encoder().to(device)
        """,
        """
        import math
        import torch
        import torch.nn as nn
        class SinusoidalPositions(nn.Module):
            # sizes in, a table out that the caller registers as a buffer; a default mask handed to a method
            @staticmethod
            def get_embedding(num_embeddings, embedding_dim):
                half = embedding_dim // 2
                emb = torch.exp(torch.arange(half).float() * -(math.log(10000) / (half - 1)))
                emb = torch.arange(num_embeddings).float().unsqueeze(1) * emb.unsqueeze(0)
                return torch.cat([torch.sin(emb), torch.cos(emb)], dim=1)
            def make_weights(self, n, dim):
                self.register_buffer("weights", self.get_embedding(n, dim), persistent=False)
            def side_bias(self, mask):
                return mask.to(self.weights.device)
            def forward(self, input_ids, mask=None):
                if mask is None:
                    mask = torch.ones(input_ids.size(0), input_ids.size(1))
                self.make_weights(input_ids.size(1), 64)
                scale = torch.sqrt(torch.tensor(input_ids.size(-1), dtype=torch.float))
                return self.weights[input_ids] / scale + self.side_bias(mask)
        model = SinusoidalPositions().to(device)
        """,
        # The frequencies are built on the input's device, or moved there, however wrapped.
        """
        import torch
        import torch.nn as nn
        class RotaryAngles(nn.Module):
            def __init__(self, head_dim):
                super().__init__()
                self.head_dim = head_dim
            def forward(self, positions):
                exponent = torch.arange(0, self.head_dim, 2, device=positions.device).float() / self.head_dim
                inv_freq = 1.0 / (10000 ** exponent)
                scale = torch.exp(torch.arange(self.head_dim // 2) / self.head_dim).to(positions.device)
                angles = positions[..., None] * inv_freq[None, None, :] * scale
                return torch.stack([angles.cos(), angles.sin()], dim=-1)
        rope = RotaryAngles(64).cuda()
        """,
        # SuperGAT's attention labels: ones and zeros joined on the CPU, then moved to the scores' device
        """
        import torch
        import torch.nn as nn
        class EdgeScores(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.attn = nn.Linear(dim, 1)
            def forward(self, pos, neg):
                e, neg_e = self.attn(pos), self.attn(neg)
                self.attn_x = torch.cat([e, neg_e]).squeeze(-1)
                self.attn_y = torch.cat([torch.ones(e.shape[0]), torch.zeros(neg_e.shape[0])]).to(self.attn_x.device)
                return self.attn_x
        scores = EdgeScores(16).cuda()
        """,
        # DiffWave's step embedding: the frequencies indexed, then moved to the configured device before they meet
        # the (moved) step indices
        """
        import torch
        import torch.nn as nn
        class StepEmbedding(nn.Module):
            def __init__(self, dim, device="cpu"):
                super().__init__()
                self.dim = dim
                self.device = device
                self.fc = nn.Linear(dim, dim, device=device)
            def encode(self, t, F=4):
                t = t[:, None].repeat(1, self.dim // 2).to(self.device)
                freqs = 10 ** ((torch.arange(0, self.dim // 2).float() * F) / (self.dim // 2))
                freqs = freqs[None, :].to(self.device)
                return torch.cat([torch.sin(torch.mul(t, freqs)), torch.cos(torch.mul(t, freqs))], dim=-1)
            def forward(self, x, t):
                return x + self.fc(self.encode(t).to(x.device))
        embedding = StepEmbedding(64, device="cuda").to("cuda")
        """,
        # A table built once on the CPU and cached on the module after it is moved to the input's device; noise
        # drawn with tensors for mean and std, which samples on their device.
        """
        import torch
        import torch.nn as nn
        class CachedRotary(nn.Module):
            def __init__(self, dim, base=10000):
                super().__init__()
                self.dim = dim
                self.base = base
                self.inv_freq = None
                self.mu = nn.Linear(dim, dim)
            def forward(self, x):
                if self.inv_freq is None:
                    inv_freq = 1.0 / (self.base ** (torch.arange(0, self.dim, 2).float() / self.dim))
                    self.inv_freq = inv_freq.to(x.device).to(x.dtype)
                mu = self.mu(x)
                z = mu + torch.normal(mu.new_zeros(mu.shape), mu.new_ones(mu.shape))
                return z * self.inv_freq.repeat(2)
        rotary = CachedRotary(64).cuda()
        """,
        # sooftware/conformer's relative positions: two tables sized by the input, built together on the CPU and
        # moved to the input's device before they are cached.
        """
        import math
        import torch
        import torch.nn as nn
        class RelPositionalEncoding(nn.Module):
            def __init__(self, d_model=512):
                super().__init__()
                self.d_model = d_model
                self.pe = None
            def extend_pe(self, x):
                position = torch.arange(0, x.size(1), dtype=torch.float32).unsqueeze(1)
                div_term = torch.exp(torch.arange(0, self.d_model, 2).float() * -(math.log(10000.0) / self.d_model))
                pe = torch.zeros(x.size(1), self.d_model)
                pe[:, 0::2] = torch.sin(position * div_term)
                self.pe = pe.unsqueeze(0).to(device=x.device, dtype=x.dtype)
            def forward(self, x):
                self.extend_pe(x)
                return x + self.pe[:, :x.size(1)]
        model = RelPositionalEncoding().to("cuda")
        """,
        # The noise drawn on the input's device.
        """
        import torch
        import torch.nn as nn
        class VAE(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(784, 40)
            def reparameterize(self, mu, logvar):
                std = torch.exp(0.5 * logvar)
                return mu + torch.randn(std.size(), device=std.device) * std
            def forward(self, x):
                h = self.enc(x)
                mu, logvar = h.chunk(2, dim=-1)
                return self.reparameterize(mu, logvar)
        model = VAE().to("cuda")
        """,
        # The window kept as a buffer: it moves with the module.
        """
        import torch
        import torch.nn as nn
        class MelFrontend(nn.Module):
            def __init__(self, n_fft=400, hop=160):
                super().__init__()
                self.n_fft, self.hop = n_fft, hop
                self.register_buffer("window", torch.hann_window(n_fft))
            def forward(self, audio):
                stft = torch.stft(audio, self.n_fft, self.hop, window=self.window, return_complex=True)
                return stft.abs() ** 2
        frontend = MelFrontend().to("cuda")
        """,
        # A flag registered from a method `forward` calls: stored, not mixed with anything.
        """
        import torch
        import torch.nn as nn
        class EMACodebook(nn.Module):
            def __init__(self, dim, size):
                super().__init__()
                self.register_buffer("embed", torch.randn(size, dim))
            def update(self, name, new_value):
                if getattr(self, name + "_needs_init", True):
                    self.register_buffer(name + "_needs_init", torch.Tensor([False]))
                self.register_buffer(name, new_value.detach())
            def forward(self, x):
                dist = torch.cdist(x, self.embed)
                self.update("embed_sum", x.sum(dim=0))
                return dist.argmin(dim=-1)
        codebook = EMACodebook(64, 512).cuda()
        """,
        # The self-exclusion mask made on the input's device, then reshaped with einops.
        """
        import torch
        from torch import nn
        from einops import rearrange
        class PairwiseDistances(nn.Module):
            def forward(self, coors):
                n = coors.shape[1]
                eye = rearrange(torch.eye(n, dtype=torch.bool, device=coors.device), 'i j -> () i j')
                dist = torch.cdist(coors, coors)
                return dist.masked_fill(eye, float("inf")).min(dim=-1).values
        layer = PairwiseDistances().to(device)
        """,
        # rotary embeddings (lucidrains' rotary-embedding-torch): positions made on the buffer's device and dtype
        """
        import torch
        import torch.nn as nn
        class RotaryEmbedding(nn.Module):
            def __init__(self, dim):
                super().__init__()
                inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
                self.register_buffer("inv_freq", inv_freq)
            def forward(self, x):
                t = torch.arange(x.shape[1], device=x.device).type_as(self.inv_freq)
                freqs = torch.einsum("i,j->ij", t, self.inv_freq)
                return torch.cat((freqs, freqs), dim=-1)
        rotary = RotaryEmbedding(32).cuda()
        """,
        # A position table built on the CPU by a helper method and cached on the module (rl4co's cyclic positional
        # embedding): each read of the cache moves it to the input's device or asks only its size.
        """
        import torch
        import torch.nn as nn
        class CachedPositions(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.dim = dim
                self.table = None
            def _build(self, length):
                steps = torch.arange(length).float()
                table = torch.stack([torch.sin(steps / 2), torch.cos(steps / 2)], dim=-1)
                return table.repeat(1, self.dim // 2)
            def forward(self, tokens):
                batch, length = tokens.size()
                if self.table is None or self.table.size(0) != length:
                    self.table = self._build(length)
                return self.table.expand(batch, length, self.dim).to(tokens.device)
        positions = CachedPositions(16).cuda()
        """,
        # Alexander-H-Liu/End-to-end-ASR-Pytorch's beam decoder hands its language model lengths it makes on the
        # CPU: a module of the project does what its own `forward` says with them (`pack_padded_sequence` wants
        # CPU lengths), not known to meet weights on the device.
        """
        import torch
        import torch.nn as nn
        from src.lm import RNNLM
        class BeamDecoder(nn.Module):
            def __init__(self, asr, vocab):
                super().__init__()
                self.asr = asr
                self.lm = RNNLM(vocab)
            def forward(self, audio, prev_token, hidden):
                out = self.asr(audio)
                lm_output, hidden = self.lm(prev_token.unsqueeze(1), torch.ones([1]), hidden=hidden)
                return out + lm_output.squeeze(0), hidden
        decoder = BeamDecoder(asr, 32).cuda()
        """,
        # mravanelli/pytorch-kaldi's LiGRU: dropout masks made on the CPU, run through a parameter-free dropout
        # layer (no weights on the device to meet), then moved.
        """
        import torch
        import torch.nn as nn
        class LiGRU(nn.Module):
            def __init__(self, n_in, hidden, batch, dropout, device):
                super().__init__()
                self.wz = nn.Linear(n_in, hidden)
                self.drop = nn.Dropout(p=dropout).to(device)
                self.device = device
                self.batch, self.hidden = batch, hidden
            def forward(self, x):
                masks = self.drop(torch.ones(100, self.batch, self.hidden)).to(self.device).data
                return self.wz(x) * masks[0]
        model = LiGRU(8, 16, 4, 0.2, "cuda").to("cuda")
        """,
        # A decoder's first step: its context comes from a helper on the CPU and is moved to the memory's device,
        # under the same name, before it is read.
        """
        import torch
        import torch.nn as nn
        class AttnDecoder(nn.Module):
            def __init__(self, vocab, emb, hid):
                super().__init__()
                self.embed = nn.Embedding(vocab, emb)
                self.cell = nn.LSTMCell(emb + hid, hid)
                self.out = nn.Linear(hid, vocab)
                self.hid = hid
            def _empty_context(self, n):
                return torch.zeros(n, self.hid)
            def forward(self, memory, tokens, state):
                context = self._empty_context(memory.size(0))
                context = context.to(memory.device)
                step_input = torch.cat([self.embed(tokens), context], dim=1)
                h, c = self.cell(step_input, state)
                return self.out(h), (h, c)
        model = AttnDecoder(1000, 32, 64).cuda()
        """,
        # A default time grid made on the CPU and handed, beside the state, to the project's solver, which decides
        # where it goes (it moves the grid to the state's device); the helper hands the state back unchanged.
        """
        import torch
        import torch.nn as nn
        from .solvers import integrate
        class ContinuousFlow(nn.Module):
            def __init__(self, field):
                super().__init__()
                self.field = field
            def _grid(self, z, times):
                if times is None:
                    times = torch.linspace(0.0, 1.0, 10)
                return z, times
            def forward(self, z, times=None):
                z, times = self._grid(z, times)
                return integrate(self.field, z, times)
        flow = ContinuousFlow(nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 2))).cuda()
        """,
    ]
    INVALID = [
        # A helper method's CPU tensor handed to another method that multiplies it with the layer's output.
        """
        import torch
        import torch.nn as nn
        class Scaled(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)
            def mask(self):
                return torch.ones(4)
            def scale(self, h, m):
                return h * m
            def forward(self, x):
                m = self.mask()
                return self.scale(self.lin(x), m)
        model = Scaled().to("cuda")
        """,
        # ALiBi-style distances made on the CPU and multiplied by the registered slopes, which `.cuda()` moved
        """
        import torch
        import torch.nn as nn
        class ALiBi(nn.Module):
            def __init__(self, n_heads):
                super().__init__()
                self.register_buffer("slopes", torch.tensor([2 ** (-8 * (i + 1) / n_heads) for i in range(n_heads)]))
            def forward(self, scores):
                t = scores.size(-1)
                dist = torch.arange(t)[None, :]
                return scores - self.slopes[:, None, None] * dist
        bias = ALiBi(8).cuda()
        """,
        # a diffusion model's timestep embedding, a plain function `forward` hands the timesteps
        """
        import math
        import torch
        import torch.nn as nn
        def timestep_embedding(t, dim):
            half = dim // 2
            freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
            args = t[:, None].float() * freqs[None]
            return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
        class Denoiser(nn.Module):
            def __init__(self, d=64):
                super().__init__()
                self.t_mlp = nn.Linear(32, d)
            def forward(self, x, t):
                return x + self.t_mlp(timestep_embedding(t, 32))
        model = Denoiser().cuda()
        """,
        # the sinusoidal table kept as a plain attribute, not a buffer: `.cuda()` leaves it on the CPU
        """
        import torch
        import torch.nn as nn
        class PositionalEncoding(nn.Module):
            def __init__(self, d_model, max_len=5000):
                super().__init__()
                position = torch.arange(max_len).unsqueeze(1)
                pe = torch.zeros(max_len, d_model)
                pe[:, 0::2] = torch.sin(position)
                pe[:, 1::2] = torch.cos(position)
                self.pe = pe.unsqueeze(0)
            def forward(self, x):
                return x + self.pe[:, :x.size(1)]
        model = PositionalEncoding(128).cuda()
        """,
        # nanoGPT-style positions: the batch dimension added by indexing keeps the CPU tensor
        """
        import torch
        import torch.nn as nn
        class GPT(nn.Module):
            def __init__(self, vocab, block, d):
                super().__init__()
                self.wte = nn.Embedding(vocab, d)
                self.wpe = nn.Embedding(block, d)
            def forward(self, idx):
                B, T = idx.shape
                pos = torch.arange(T)[None]
                return self.wte(idx) + self.wpe(pos)
        model = GPT(65, 128, 64).to("cuda")
        """,
        # a causal mask compared with 0 and handed to `masked_fill` of the attention scores
        _CAUSAL_ATTENTION % """
                causal = torch.tril(torch.ones(T, T))[None]
                att = att.masked_fill(causal == 0, float("-inf")).softmax(-1)
                return att @ v""",
        # A model from a factory, moved by its caller; the padding mask compares positions with the lengths.
        """
        import torch
        import torch.nn as nn
        class AttnPool(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.q = nn.Linear(d, 1)
            def forward(self, x, lengths):
                scores = self.q(x).squeeze(-1)
                mask = torch.arange(x.size(1))[None, :] >= lengths[:, None]
                return (scores.masked_fill(mask, float("-inf")).softmax(-1).unsqueeze(-1) * x).sum(1)
        def build_model(cfg):
            return AttnPool(cfg.dim)
        model = build_model(cfg).cuda()
        """,
        # Blocks in an nn.ModuleList a helper builds: moving the stack moves them.
        """
        import torch
        import torch.nn as nn
        class NoisyBlock(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.fc = nn.Linear(d, d)
            def forward(self, x):
                return self.fc(x) + 0.1 * torch.randn(x.shape)
        def make_blocks(d, n):
            return nn.ModuleList([NoisyBlock(d) for _ in range(n)])
        class Stack(nn.Module):
            def __init__(self, d, n):
                super().__init__()
                self.blocks = make_blocks(d, n)
            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x
        model = Stack(16, 4).to("cuda")
        """,
        # A trainer moves the model its constructions hand it.
        """
        import torch
        import torch.nn as nn
        class GRUNet(nn.Module):
            def __init__(self, hidden):
                super().__init__()
                self.hidden = hidden
                self.gru = nn.GRU(3, hidden, batch_first=True)
            def forward(self, x):
                h = torch.zeros(1, x.size(0), self.hidden)
                out, h = self.gru(x, h)
                return out
        class Trainer:
            def __init__(self, model, device):
                self.model = model.to(device)
        def main():
            trainer = Trainer(GRUNet(32), torch.device("cuda"))
        """,
        # A LightningModule's training_step hands its helper the encoder's output.
        """
        import torch
        import torch.nn as nn
        import lightning as L
        class VAE(L.LightningModule):
            def __init__(self, d, z):
                super().__init__()
                self.enc = nn.Linear(d, 2 * z)
                self.dec = nn.Linear(z, d)
            def reparameterize(self, mu, logvar):
                eps = torch.randn(mu.size())
                return mu + eps * torch.exp(0.5 * logvar)
            def training_step(self, batch, batch_idx):
                mu, logvar = self.enc(batch).chunk(2, dim=-1)
                return nn.functional.mse_loss(self.dec(self.reparameterize(mu, logvar)), batch)
        """,
        # Lightning-AI/pytorch-lightning#3738: the trainer moves the module and its batches to the GPU; the
        # hidden state made in a helper of `training_step` stays on the CPU.
        Invalid("""
        import torch
        import pytorch_lightning as pl
        class RNN(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.lstm = torch.nn.LSTM(8, 16, 2)
            def init_hidden(self, batch_size):
                hidden = torch.zeros(2, batch_size, 16)
                cell = torch.zeros(2, batch_size, 16)
                return hidden, cell
            def training_step(self, batch, batch_idx):
                hidden, cell = self.init_hidden(batch.size(1))
                out, _ = self.lstm(batch, (hidden, cell))
                return out.pow(2).mean()
        """, count=2),
        Invalid(
            """
        import torch
        import torch.nn as nn
        class RNN(nn.Module):
            def __init__(self, input_size, hidden_size, num_layers):
                super().__init__()
                self.hidden_size, self.num_layers = hidden_size, num_layers
                self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
            def forward(self, x):
                h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)
                c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size)
                out, _ = self.lstm(x, (h0, c0))
                return out
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = RNN(28, 128, 2).to(device)
            """,
            count=2,
        ),
        Invalid(
            """
            import torch
            import torch.nn as nn
            class Decoder(nn.Module):
                def init_hidden(self, batch):
                    return torch.zeros(1, batch, self.hidden)
                def forward(self, x):
                    h = self.init_hidden(x.size(0))
                    return self.gru(x, h)
            decoder = Decoder()
            decoder.cuda()
            """,
        ),
        """
        import torch
        import torch.nn as nn
        class PositionalBias(nn.Module):
            def __init__(self, dim, device):
                super().__init__()
                self.device = device
                self.proj = nn.Linear(dim, dim)
            def forward(self, x):
                bias = torch.arange(x.size(1)).float().unsqueeze(-1)
                return self.proj(x) + bias
        """,
        # Rotary frequencies built in `forward`: wrapped in arithmetic, then indexed, still a CPU tensor.
        """
        import torch
        import torch.nn as nn
        class RotaryAngles(nn.Module):
            def __init__(self, head_dim):
                super().__init__()
                self.head_dim = head_dim
            def forward(self, positions):
                inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
                angles = positions[..., None] * inv_freq[None, None, :]
                return torch.stack([angles.cos(), angles.sin()], dim=-1)
        rope = RotaryAngles(64).cuda()
        """,
        # A word-level LSTM cell inside a moved seq2seq model: `.cuda()` moves the submodule too.
        Invalid(
            """
            import torch
            import torch.nn as nn
            class WordDecoder(nn.Module):
                def __init__(self, emb, hid):
                    super().__init__()
                    self.hid = hid
                    self.lstm = nn.LSTMCell(emb, hid)
                def forward(self, embedded):
                    h = torch.zeros(embedded.size(1), self.hid)
                    c = torch.zeros(embedded.size(1), self.hid)
                    outputs = []
                    for step in embedded:
                        h, c = self.lstm(step, (h, c))
                        outputs.append(h)
                    return torch.stack(outputs)
            class Seq2Seq(nn.Module):
                def __init__(self, vocab):
                    super().__init__()
                    self.embed = nn.Embedding(vocab, 128)
                    self.decoder = WordDecoder(128, 256)
                def forward(self, tokens):
                    return self.decoder(self.embed(tokens))
            model = Seq2Seq(5000).cuda()
            """,
            count=2,
        ),
        # The VAE's noise, drawn in a helper `forward` hands its encoder's outputs.
        """
        import torch
        import torch.nn as nn
        class VAE(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(784, 400)
                self.mu = nn.Linear(400, 20)
                self.logvar = nn.Linear(400, 20)
            def reparameterize(self, mu, logvar):
                std = torch.exp(0.5 * logvar)
                eps = torch.randn(std.size())
                return mu + eps * std
            def forward(self, x):
                h = torch.relu(self.enc(x))
                return self.reparameterize(self.mu(h), self.logvar(h))
        model = VAE().to("cuda")
        """,
        # A causal mask handed to attention.
        """
        import torch
        import torch.nn as nn
        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
            def forward(self, x):
                t = x.size(1)
                mask = torch.triu(torch.ones(t, t), diagonal=1).bool()
                return self.attn(x, x, x, attn_mask=mask)[0]
        model = Decoder().cuda()
        """,
        # A decoder handed to the model that is moved.
        """
        import torch
        import torch.nn as nn
        class Decoder(nn.Module):
            def __init__(self, vocab, hid):
                super().__init__()
                self.hid = hid
                self.emb = nn.Embedding(vocab, hid)
                self.gru = nn.GRU(hid, hid, batch_first=True)
            def forward(self, tokens):
                h0 = torch.zeros(1, tokens.size(0), self.hid)
                return self.gru(self.emb(tokens), h0)[0]
        class Seq2Seq(nn.Module):
            def __init__(self, decoder):
                super().__init__()
                self.decoder = decoder
            def forward(self, tokens):
                return self.decoder(tokens)
        decoder = Decoder(100, 64)
        model = Seq2Seq(decoder).to(torch.device("cuda"))
        """,
        # An STFT window made in `forward`: `torch.stft` wants it on the signal's device.
        """
        import torch
        import torch.nn as nn
        class SpectrogramDiscriminator(nn.Module):
            def __init__(self, n_fft=1024, hop=256):
                super().__init__()
                self.n_fft, self.hop = n_fft, hop
                self.conv = nn.Conv2d(2, 32, 3, padding=1)
            def forward(self, wave):
                spec = torch.stft(wave, self.n_fft, hop_length=self.hop, window=torch.hann_window(self.n_fft),
                                  return_complex=True)
                return self.conv(torch.stack((spec.real, spec.imag), dim=1))
        disc = SpectrogramDiscriminator().cuda()
        """,
        # A mask made on the CPU, reshaped with einops, then handed to a method of an input-derived tensor.
        """
        import torch
        import torch.nn as nn
        from einops import rearrange
        class NeighborFeatures(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.to_out = nn.Linear(dim, dim)
            def forward(self, feats):
                b, n, _ = feats.shape
                not_self = rearrange(~torch.eye(n, dtype=torch.bool), 'i j -> () i j 1')
                pairs = feats[:, :, None, :] - feats[:, None, :, :]
                return self.to_out(pairs.masked_fill(~not_self, 0.).sum(dim=2))
        net = NeighborFeatures(32).cuda()
        """,
        # A parameter-free submodule keeps the CPU tensor where it is: the dropout mask then meets the input.
        """
        import torch
        import torch.nn as nn
        class LiGRU(nn.Module):
            def __init__(self, n_in, hidden, batch, dropout):
                super().__init__()
                self.wz = nn.Linear(n_in, hidden)
                self.drop = nn.Dropout(p=dropout)
                self.batch, self.hidden = batch, hidden
            def forward(self, x):
                masks = self.drop(torch.ones(100, self.batch, self.hidden)) * x[None]
                return self.wz(x) * masks[0]
        model = LiGRU(8, 16, 4, 0.2).to("cuda")
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._moved: list[cst.ClassDef] = []  # the classes of the file whose instances `.to(device)` moves
        # `model.to(device)` on a parameter: (the function, the parameter), for its callers to say what it holds
        self._moved_parameters: list[tuple[cst.FunctionDef, str]] = []

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is cst.Attribute and func.attr.value in ("to", "cuda") and moves_to_device(self.ctx, node):
            class_def = instance_class(self.ctx, func.value)
            if class_def is not None:
                self._moved.append(class_def)
                self._moved.extend(self._handed_modules(func.value))
            receiver = func.value
            binding = self.ctx.binding(receiver) if type(receiver) is cst.Name else None
            if binding is not None and binding.kind == "param" and binding.statement is self.ctx.function:
                self._moved_parameters.append((binding.statement, binding.name))  # type: ignore[arg-type]
            else:
                self._moved.extend(self._objects(evaluator(self.ctx).value(receiver)))

    def _objects(self, value: object) -> list[cst.ClassDef]:
        """The classes of a module the objects floor built, with the modules it holds (`self.blocks =
        make_blocks(d, n)` returning an `nn.ModuleList` of a class of this file): `.to(device)` moves them all."""
        todo, seen, found = [value], set(), []
        while todo:
            value = todo.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, Instance):
                if value.cls.ctx is self.ctx:
                    found.append(value.cls.node)
                todo.extend(value.attrs.values())
                todo.append(value.items)
            elif isinstance(value, TorchObject):
                todo.append(value.items)
            elif isinstance(value, Seq):
                todo.extend((*value.items, value.each))
            elif isinstance(value, Mapping):
                todo.extend(item for _, item in value.items)
        return found

    def _passed(self) -> list[cst.ClassDef]:
        """`def train(model, ...): model.to(device)`, `Trainer.__init__`'s `self.model = model.to(device)`: the
        classes of what the callers (the constructions) of the file pass, which is moved."""
        found = []
        for function, parameter in self._moved_parameters:
            class_def = self.ctx.class_of_method(function)
            if class_def is not None and function.name.value == "__init__":
                passed = constructor_arguments(self.ctx, class_def, function, parameter) or []
            else:
                sites = helper_callers(self.ctx, function) or []
                passed = [(argument, point, self.ctx) for site, point in sites
                          if (argument := passed_argument(function, site.node, parameter)) is not None]
            for argument, point, reader in passed:
                with reader.at(point):
                    class_def = instance_class(reader, argument)
                    if class_def is not None:
                        found.append(class_def)
                    else:
                        found.extend(self._objects(evaluator(reader).value(argument)))
        return found

    def _handed_modules(self, module: cst.BaseExpression) -> list[cst.ClassDef]:
        """`Seq2Seq(Encoder(...), decoder).to(device)`: the modules handed to a moved module's constructor are its
        submodules, moved with it."""
        built, before = self.ctx.value_of(module)
        if type(built) is not cst.Call:
            return []
        return [class_def for arg in built.args if not (type(arg.value) is cst.Name and arg.value.value == "self")
                if (class_def := instance_class(self.ctx, arg.value, before)) is not None]

    def finish(self) -> None:
        moved = self._with_submodules({id(class_def) for class_def in [*self._moved, *self._passed()]})
        # A module fact, so the editor server walks only the classes an edit replaced.
        mentioning = self.ctx.module_fact("classes that mention a device", _classes_mentioning_device)
        helpers: set[cst.FunctionDef] = set()
        unmoved: dict[int, list[tuple[cst.Call, str]]] = {}
        found: list[tuple[cst.Call, str]] = []
        for class_def in self.ctx.class_defs:
            if not is_torch_module_class(self.ctx, class_def):
                continue
            # Lightning's trainer moves a LightningModule to the accelerator and hands its steps batches there.
            lightning = lightning_class(class_def)
            if id(class_def) in moved or class_def in mentioning or lightning:
                found += self._kept_findings(class_def, lightning, helpers)
            elif findings := self._kept_findings(class_def, False, set(helpers)):
                unmoved[id(class_def)] = findings  # moved, if at all, by the modules that import it
        if unmoved:
            found += self._moved_by_importers(unmoved)
        # a default device the program sets (`torch.set_default_tensor_type("torch.cuda.FloatTensor")` in a launcher)
        # makes the factories build there: where they build is not known
        if found and not default_device_set(self.ctx):
            for call, message in found:
                self.report(call, message)

    def _moved_by_importers(self, unmoved: dict[int, list[tuple[cst.Call, str]]]) -> list[tuple[cst.Call, str]]:
        """The findings of the classes (by id()) the file never moves that the project's modules importing them do:
        `model.py` defines the model, `train.py` moves it (or a model holding it) to the device."""
        classes = {class_def.name.value for class_def in self.ctx.class_defs}
        builders = {name: name for name in classes}
        for name, definitions in self.ctx.functions.items():  # `def build_model(cfg): return Net(cfg.d)`
            built = {last_name(node.value.func) for definition in definitions for node in self.ctx.walk(definition)
                     if type(node) is cst.Return and type(node.value) is cst.Call} & classes
            if len(built) == 1 and name not in builders:
                builders[name] = built.pop()
        elsewhere = moved_by_importers(self.ctx.filename, builders)
        moved = self._with_submodules({id(class_def) for class_def in self.ctx.class_defs
                                       if class_def.name.value in elsewhere})
        return [finding for key, findings in unmoved.items() if key in moved for finding in findings]

    def _kept_findings(self, class_def: cst.ClassDef, lightning: bool,
                       helpers: set[cst.FunctionDef]) -> list[tuple[cst.Call, str]]:
        """`_findings`, as a part of `finish` that the editor server keeps between edits (`Context.finish_part`)
        while the class, the helpers reported before it and what it reads of the module are the same: it reads no
        call site and no training loop, only names, functions and module facts."""
        def work() -> tuple[list[tuple[cst.Call, str]], frozenset[cst.FunctionDef]]:
            reached = set(helpers)
            return self._findings(class_def, lightning, reached), frozenset(reached - helpers)

        found, added = self.ctx.finish_part((self.code, class_def), (class_def, lightning, frozenset(helpers)), work)
        helpers |= added
        return found

    def _findings(self, class_def: cst.ClassDef, lightning: bool,
                  helpers: set[cst.FunctionDef]) -> list[tuple[cst.Call, str]]:
        """The creations off the device of a moved module class, each with its message; `helpers`: the plain
        functions of the file another moved module's `forward` calls, whose creations are reported once."""
        found = []
        methods = {m.name.value: m for m in class_def.body.body if type(m) is cst.FunctionDef}
        roots = ("forward", *_LIGHTNING_STEPS) if lightning else ("forward",)
        reached: dict[int, cst.FunctionDef] = {}
        for root in roots:
            reached.update((id(method), method) for method in _reachable(methods, root))
        for method in reached.values():
            found.extend((call, self.message.format(call=self.ctx.code(call.func) + "(...)"))
                         for call in self._offending(method, methods, roots))
        for function, handed in self._functions_called(list(reached.values()), methods, roots).items():
            if function in helpers:
                continue  # another moved module's `forward` calls it too
            helpers.add(function)
            found.extend((call, self.message.format(call=self.ctx.code(call.func) + "(...)"))
                         for call in self._offending(function, {}, roots, handed))
        for call, attribute in self._stored_on_cpu(class_def, methods, list(reached.values()), roots):
            found.append((call, f"`{self.ctx.code(call.func)}(...)` makes a CPU tensor that `__init__` keeps as a "
                                f"plain attribute, `self.{attribute}`, which `forward` mixes with the module's "
                                "inputs, but the module is moved to a device and `.to()` moves only parameters and "
                                "buffers: "
                                "\"Expected all tensors to be on the same device\"; register it with "
                                f"`self.register_buffer(\"{attribute}\", ...)`"))
        return found

    def _with_submodules(self, moved: set[int]) -> set[int]:
        """`.to(device)` moves a module's submodules with it: `self.encoder = RecurrentEncoder(...)` in a moved
        `TrajectoryClassifier` moves every `RecurrentEncoder` built there, transitively. `moved` holds the id() of
        the classes moved."""
        todo = [class_def for class_def in self.ctx.class_defs if id(class_def) in moved]
        while todo:
            for node in self.ctx.walk(todo.pop()):
                if type(node) is not cst.Assign or type(node.value) is not cst.Call \
                        or not all(is_self_attribute(target.target) for target in node.targets):
                    continue
                held = [node.value.func]
                if type(node.value.func) is cst.Attribute and node.value.func.attr.value in _CONTAINERS:
                    # `self.blocks = nn.ModuleList([Block(d) for _ in range(n)])`: the modules it holds
                    held = [inner.func for inner in self.ctx.walk(node.value) if type(inner) is cst.Call]
                for built in held:
                    binding = self.ctx.binding(built) if type(built) is cst.Name else None
                    if binding is not None and binding.kind == "class" and id(binding.statement) not in moved:
                        moved.add(id(binding.statement))
                        todo.append(binding.statement)  # type: ignore[arg-type]
        return moved

    def _offending(self, method: cst.FunctionDef, methods: dict[str, cst.FunctionDef], roots: tuple[str, ...],
                   handed: tuple[set[str], bool] | None = None) -> list[cst.Call]:
        """Creations without a device in `method` whose value meets the inputs or parameters and is never
        placed. `handed`: for a plain function the methods call, the parameters they hand it tensors of their
        inputs in, and whether every call places what it returns."""
        parents = parent_map(method)
        helper = handed is not None or method.name.value not in roots
        if handed is not None:
            inputs = _input_names(self.ctx, method, {}, None, handed[0])
            callers_place = functools.cache(lambda position: handed[1])
        else:
            inputs = _input_names(self.ctx, method, methods, roots if helper else None)
            callers_place = functools.cache(lambda position: _placed_by_callers(method, methods)
                                            or not self._combined_by_callers(method, methods, roots, position))

        def returned_unplaced(use: cst.CSTNode) -> bool:
            return helper and _returned(use, parents) and not callers_place(_returned_at(use, parents))

        found = []
        for node in self.ctx.walk(method.body):
            if type(node) is not cst.Call or not creates_on_cpu(self.ctx, node):
                continue
            holder, placed = follow_tensor(node, parents, self.ctx,
                                           lambda other: not _mentions_input(other, inputs, methods))
            if placed:
                continue
            if type(holder) is cst.Name:
                uses = [n for n in self.ctx.walk(method.body) if type(n) is cst.Name and n.value == holder.value
                        and n is not holder]
                if any(follow_tensor(use, parents)[1] or _filled(use, parents) for use in uses):
                    continue  # `h = h.to(device)` later, or a buffer filled by `h[i] = ...` (a copy across devices)
                if any(_combined(self.ctx, use, parents, inputs, methods) or returned_unplaced(use) for use in uses):
                    found.append(node)
            elif _combined(self.ctx, holder, parents, inputs, methods) or returned_unplaced(holder):
                found.append(node)
        return found

    def _combined_by_callers(self, helper: cst.FunctionDef, methods: dict[str, cst.FunctionDef],
                             roots: tuple[str, ...], position: int | None = None) -> bool:
        """Some method calling the helper (`self.helper(...)`) meets what it returns with its inputs, parameters or a
        submodule, returns it in turn, or hands it to a method that does: powerful-gnns'
        `__preprocess_neighbors_maxpool` returns a CPU `LongTensor` that `forward` hands through two methods to an
        index (`h[padded_neighbor_list]`: a CPU index of a CUDA tensor is fine). `position`: where the tensor is in
        the tuple the helper returns; of `x, t_span = self._prep(x, t_span)`, only `t_span` holds it, and the reads
        in the call itself are of the values before it."""
        for caller, calls in self_calls(methods.values(), helper.name.value):
            parents = parent_map(caller)
            for call in calls:
                holder, placed = follow_tensor(call, parents)
                if placed:
                    continue
                assign = parents.get(id(holder))
                kept = assign.targets[0].target if type(assign) is cst.Assign and len(assign.targets) == 1 else None
                if kept is not None and is_self_attribute(kept):
                    # `self.table = self._build(n)`: what every method reads of the attribute
                    attribute = kept.attr.value  # type: ignore[attr-defined]
                    for reader in methods.values():
                        reads = [node for node in self.ctx.walk(reader.body) if is_self_attribute(node)
                                 and node.attr.value == attribute and node is not kept]  # type: ignore[attr-defined]
                        if reads and self._uses_meet(reader, reads, parent_map(reader), methods, roots, 3):
                            return True
                    continue
                if type(holder) is cst.Name:
                    bound = {holder.value}
                elif type(assign) is cst.Assign:  # `hidden, cell = self.init_hidden(b)`: what the names hold
                    bound = {name for target in assign.targets for name in target_names(_at_position(target.target,
                                                                                                     position))}
                else:
                    bound = set()
                before = {id(node) for node in walk(call)}
                uses = [node for node in self.ctx.walk(caller.body) if type(node) is cst.Name and node.value in bound
                        and node is not holder and id(node) not in before] if bound else [holder]
                if self._uses_meet(caller, uses, parents, methods, roots, 3):
                    return True
        return False

    def _uses_meet(self, method: cst.FunctionDef, uses: list[cst.CSTNode], parents: dict[int, cst.CSTNode],
                   methods: dict[str, cst.FunctionDef], roots: tuple[str, ...], depth: int) -> bool:
        """One of `uses` (reads in `method` of a tensor a helper returned) meets the inputs, parameters or a
        submodule, is returned, or is handed to a method of the class (up to `depth` calls down) where one does."""
        inputs = _input_names(self.ctx, method, methods, None if method.name.value in roots else roots)
        for use in uses:
            if _combined(self.ctx, use, parents, inputs, methods) or _returned(use, parents):
                return True
            arg = parents.get(id(use))
            call = parents.get(id(arg))
            if type(arg) is not cst.Arg or type(call) is not cst.Call or arg.value is not use:
                continue
            if _submodule_call(call, methods):
                return True  # `self.gru(x, h)`: a submodule's weights are where the module is
            callee = methods.get(call.func.attr.value) if is_self_attribute(call.func) else None  # type: ignore
            if callee is None or depth == 0:
                continue
            for param in callee.params.params:
                if passed_argument(callee, call, param.name.value) is use:
                    reads = [node for node in self.ctx.walk(callee.body)
                             if type(node) is cst.Name and node.value == param.name.value]
                    if self._uses_meet(callee, reads, parent_map(callee), methods, roots, depth - 1):
                        return True
        return False

    def _functions_called(self, reached: list[cst.FunctionDef], methods: dict[str, cst.FunctionDef],
                          roots: tuple[str, ...]) -> dict[cst.FunctionDef, tuple[set[str], bool]]:
        """The plain functions of the file that the methods `forward` reaches call by name
        (`timestep_embedding(t, self.dim)`), each with the parameters every such call hands a tensor computed from
        the method's inputs, and whether every such call places what it returns (`.to(x.device)`)."""
        calls: dict[cst.FunctionDef, list[tuple[cst.Call, set[str], dict[int, cst.CSTNode]]]] = {}
        for method in reached:
            inputs = _input_names(self.ctx, method, methods, None if method.name.value in roots else roots)
            parents = None
            for node in self.ctx.walk(method.body):
                if type(node) is not cst.Call or type(node.func) is not cst.Name:
                    continue
                binding = self.ctx.binding(node.func)
                function = binding.statement if binding is not None and binding.kind == "def" else None
                if type(function) is cst.FunctionDef and self.ctx.class_of_method(function) is None:
                    parents = parents or parent_map(method)
                    calls.setdefault(function, []).append((node, inputs, parents))
        found = {}
        for function, sites in calls.items():
            handed = {param.name.value for param in function.params.params if not _number_parameter(param)
                      and all((arg := passed_argument(function, call, param.name.value)) is not None
                              and not is_int(self.ctx, arg) and _mentions_input(arg, inputs, methods)
                              for call, inputs, _ in sites)}
            if handed:
                found[function] = (handed, all(follow_tensor(call, parents)[1] for call, _, parents in sites))
        return found

    def _stored_on_cpu(self, class_def: cst.ClassDef, methods: dict[str, cst.FunctionDef],
                       reached: list[cst.FunctionDef], roots: tuple[str, ...]) -> list[tuple[cst.Call, str]]:
        """Tensors `__init__` makes without a device and keeps as plain attributes (`self.pe = torch.zeros(1, n, d)`,
        or a local filled first: `pe = torch.zeros(n, d)`, `pe[:, 0::2] = ...`, `self.pe = pe.unsqueeze(0)`) that
        the methods `forward` reaches combine with its inputs unplaced (`x + self.pe[:, :x.size(1)]`). An attribute
        assigned anywhere else in the file, or a class that moves tensors itself (`_apply`, `to`), is left alone."""
        init = methods.get("__init__")
        if init is None or {"_apply", "to", "cuda"} & methods.keys():
            return []
        found = []
        for line in init.body.body:
            small = line.body[0] if type(line) is cst.SimpleStatementLine and len(line.body) == 1 else None
            if type(small) is not cst.Assign or len(small.targets) != 1 \
                    or not is_self_attribute(small.targets[0].target):
                continue
            attribute = small.targets[0].target.attr.value  # type: ignore[attr-defined]
            call = cpu_creation(self.ctx, small.value, init)
            if call is None or self._assigned_elsewhere(attribute, small):
                continue
            for method in reached:
                if method is init:
                    continue
                parents = parent_map(method)
                inputs = _input_names(self.ctx, method, methods, None if method.name.value in roots else roots)
                uses = [node for node in self.ctx.walk(method.body) if is_self_attribute(node)
                        and node.attr.value == attribute]  # type: ignore[attr-defined]
                if any(not follow_tensor(use, parents)[1] and _combined(self.ctx, use, parents, inputs, methods)
                       for use in uses):
                    found.append((call, attribute))
                    break
        return found

    def _assigned_elsewhere(self, attribute: str, assignment: cst.Assign) -> bool:
        """`<anything>.<attribute> = ...` in the file other than `assignment` (`model.pe = model.pe.cuda()`)."""
        assigned = self.ctx.module_fact("assigned attributes", assigned_attributes)
        return any(name == attribute and node is not assignment for _, name, node in assigned)


# torch.nn containers: what is built inside one (`nn.ModuleList([Block(d) for _ in range(n)])`) is held.
_CONTAINERS = frozenset({"ModuleList", "Sequential", "ModuleDict"})


def _placed_by_callers(helper: cst.FunctionDef, methods: dict[str, cst.FunctionDef]) -> bool:
    """Every call of the helper method in the class places what it returns (`self._build_causal_mask(b, t,
    dtype).to(hidden_states.device)`, diffusers' BLIP text model)."""
    placed = False
    for method, calls in self_calls(methods.values(), helper.name.value):
        parents = parent_map(method)
        for node in calls:
            if not follow_tensor(node, parents)[1] and not _placed_where_read(node, parents, method, methods):
                return False
            placed = True
    return placed


def _placed_where_read(call: cst.Call, parents: dict[int, cst.CSTNode], method: cst.FunctionDef,
                       methods: dict[str, cst.FunctionDef]) -> bool:
    """The helper's result is kept (`self.pattern = self._init(n)`, or a name of the calling method) and every read
    of it places it (`self.pattern.expand(b, n, d).to(x.device)`) or asks only its sizes or whether it is set
    (`self.pattern is None or self.pattern.size(0) != n`): a cache built on the CPU and moved where it is used. A
    name of the calling method is read so until it is placed and bound back (`h = h.to(x.device)`)."""
    assign = parents.get(id(call))
    if type(assign) is not cst.Assign or len(assign.targets) != 1:
        return False
    target = assign.targets[0].target
    if is_self_attribute(target):
        attribute = target.attr.value  # type: ignore[attr-defined]
        scopes = list(methods.values())

        def holds(node: cst.CSTNode) -> bool:
            return is_self_attribute(node) and node.attr.value == attribute  # type: ignore[attr-defined]
    elif type(target) is cst.Name:
        scopes = [method]

        def holds(node: cst.CSTNode) -> bool:
            return type(node) is cst.Name and node.value == target.value
    else:
        return False
    for scope in scopes:
        scope_parents = parents if scope is method else parent_map(scope)
        moved = False  # a local placed and bound back (`h = h.to(x.device)`): the reads after it are of the copy
        for node in walk(scope.body):
            if not holds(node) or moved:
                continue
            parent = scope_parents.get(id(node))
            if type(parent) is cst.Attribute and parent.attr is node:
                continue  # `self.pattern`'s own name, not the method's local
            if type(parent) is cst.AssignTarget or type(parent) is cst.Attribute and parent.value is node \
                    and parent.attr.value in _METADATA:
                continue  # bound again, or only its sizes read
            if type(parent) is cst.Comparison and all(type(t.operator) in (cst.Is, cst.IsNot)
                                                       for t in parent.comparisons):
                continue
            if type(parent) is cst.ComparisonTarget and type(parent.operator) in (cst.Is, cst.IsNot):
                continue
            if not follow_tensor(node, scope_parents)[1]:
                return False
            moved = type(target) is cst.Name and _bound_back(node, target, scope_parents)
    return True


def _bound_back(read: cst.CSTNode, name: cst.Name, parents: dict[int, cst.CSTNode]) -> bool:
    """`read` is in the value of an assignment to `name` itself (`h = h.to(x.device)`)."""
    node = parents.get(id(read))
    while node is not None and not isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        node = parents.get(id(node))
    return type(node) is cst.Assign and len(node.targets) == 1 and type(node.targets[0].target) is cst.Name \
        and node.targets[0].target.value == name.value


def _input_names(ctx: Context, method: cst.FunctionDef, methods: dict[str, cst.FunctionDef],
                 roots: tuple[str, ...] | None, handed: set[str] | None = None) -> set[str]:
    """`forward`'s parameters and the tensors computed from them or from a submodule call (`self.fc(x)`), in
    source order: what carries the module's device. Sizes (`n = x.size(0)`, `int(...)`) carry none, nor do a
    helper's parameters (`get_embedding(num_embeddings, dim)` takes sizes as often as tensors), unless `forward`
    hands them such tensors (`roots`: the methods calling a helper with batches, `forward` or Lightning's steps)."""
    if handed is not None:
        names = set(handed)
    elif roots is not None:
        names = _tensor_parameters(ctx, method, methods, roots)
    else:
        names = {p.name.value for p in method.params.params if not _number_parameter(p)} - {"self"}
    if handed is None and "__init__" in methods:
        names |= _held_tensors(methods["__init__"])
    for node in walk(method.body):
        if type(node) is cst.Assign and not is_int(ctx, node.value) and not _sizes(node.value) \
                and _carries_input(ctx, node.value, names, methods):
            # the names it binds: `self.theta = theta.to(x.device)` makes neither `self` nor `theta` an input
            for target in node.targets:
                names.update(target_names(target.target))
    return names


def _sizes(value: cst.BaseExpression) -> bool:
    """`x.shape`, `x.size()`: the sizes `B, H, L, D = x.shape` unpacks carry no device."""
    if type(value) is cst.Attribute:
        return value.attr.value == "shape"
    return type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value == "size" \
        and not value.args


def _number_parameter(param: cst.Param) -> bool:
    """`max_len: int`, `n_keep=8`: a number, which carries no device."""
    annotation = param.annotation.annotation if param.annotation is not None else None
    if type(annotation) is cst.Name and annotation.value in ("int", "float", "bool"):
        return True
    return type(param.default) in (cst.Integer, cst.Float)


def _tensor_parameters(ctx: Context, helper: cst.FunctionDef, methods: dict[str, cst.FunctionDef],
                       roots: tuple[str, ...]) -> set[str]:
    """The helper's parameters that each call of it in `forward` (or a Lightning step) hands a tensor computed from
    that method's inputs: `z = self.reparameterize(mu, logvar)` with `mu = self.fc_mu(h)`. A size
    (`self.init_hidden(x.size(0))`) is none."""
    passed_by: dict[str, list[bool]] = {param.name.value: [] for param in helper.params.params}
    for root in roots:
        caller = methods.get(root)
        if caller is None or caller is helper:
            continue
        calls = [node for node in walk(caller.body) if type(node) is cst.Call and type(node.func) is cst.Attribute
                 and type(node.func.value) is cst.Name and node.func.value.value == "self"
                 and node.func.attr.value == helper.name.value]
        if not calls:
            continue
        inputs = _input_names(ctx, caller, methods, None)
        for name, passed in passed_by.items():
            args = [passed_argument(helper, call, name) for call in calls]
            passed.extend(arg is not None and not is_int(ctx, arg) and _mentions_input(arg, inputs, methods)
                          for arg in args)
    return {name for name, passed in passed_by.items() if passed and all(passed)}


def _held_tensors(init: cst.FunctionDef) -> set[str]:
    """`self.inv_freq` for `self.register_buffer("inv_freq", ...)`, `self.scale` for `self.scale =
    nn.Parameter(...)`: the tensors `.to(device)` moves with the module, spelled as `forward` reads them."""
    held = set()
    for node in walk(init.body):
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "register_buffer" \
                and node.args and (name := string_value(node.args[0].value)) is not None:
            held.add(f"self.{name}")
        elif type(node) is cst.Assign and type(node.value) is cst.Call \
                and (dotted_name(node.value.func) or "").rsplit(".", 1)[-1] == "Parameter":
            held.update(f"self.{attribute}" for target in node.targets
                        if is_self_attribute(target.target) and (attribute := target.target.attr.value))
    return held


def _mentions_input(expr: cst.CSTNode, inputs: set[str], methods: dict[str, cst.FunctionDef]) -> bool:
    """`expr` reads an input (a name in `inputs`), a buffer or parameter (`self.x` in `inputs`) or a submodule.
    An attribute's own name is no read of a local: `self.random_mask` is not the local `random_mask`."""
    attributes = {id(node.attr) for node in walk(expr) if type(node) is cst.Attribute}
    return any(type(node) is cst.Name and node.value in inputs and id(node) not in attributes
               or _submodule_call(node, methods)
               or type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == "self"
               and f"self.{node.attr.value}" in inputs for node in walk(expr))


def _carries_input(ctx: Context, expr: cst.CSTNode, inputs: set[str], methods: dict[str, cst.FunctionDef]) -> bool:
    """`expr` computes its value from an input; an input that only sizes a new CPU tensor (`torch.arange(0,
    x.size(1))`) leaves it a CPU tensor like any other creation."""
    if type(expr) is cst.Call and creates_on_cpu(ctx, expr):
        return False
    if type(expr) is cst.Name and expr.value in inputs or _submodule_call(expr, methods):
        return True
    if type(expr) is cst.Attribute:
        return _carries_input(ctx, expr.value, inputs, methods)  # `self.random_mask` reads no local `random_mask`
    return any(_carries_input(ctx, child, inputs, methods) for child in children(expr))


def _submodule_call(node: cst.CSTNode, methods: dict[str, cst.FunctionDef]) -> bool:
    """`self.lstm(...)`: a call of a submodule (an attribute that is not a method of the class), whose weights are
    where the module is."""
    return (type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name
            and node.func.value.value == "self" and node.func.attr.value not in methods
            and node.func.attr.value not in _STORING)


def _submodule_constructions(ctx: Context, attribute: str, methods: dict[str, cst.FunctionDef]) -> list[cst.Call]:
    """The calls that build what the class's methods assign to `self.<attribute>`, through moves
    (`nn.Dropout(p)` of `self.drop = nn.Dropout(p).to(device)`); empty when one assignment is no call."""
    built = [_unmoved(value) for method in methods.values() for target, value in assigned_pairs(ctx, method.body)
             if is_self_attribute(target) and target.attr.value == attribute]  # type: ignore[attr-defined]
    return built if all(type(value) is cst.Call for value in built) else []  # type: ignore[return-value]


def _unmoved(value: cst.BaseExpression) -> cst.BaseExpression:
    """The module a chain of moves is called on: `nn.Dropout(p)` of `nn.Dropout(p).to(device)`."""
    while type(value) is cst.Call and type(value.func) is cst.Attribute and value.func.attr.value in RETURNS_SELF:
        value = value.func.value
    return value


def _reachable(methods: dict[str, cst.FunctionDef], start: str) -> list[cst.FunctionDef]:
    """`forward` and the methods it calls as `self.name(...)`, transitively."""
    seen: list[cst.FunctionDef] = []
    todo = [start]
    while todo:
        method = methods.get(todo.pop())
        if method is None or any(m is method for m in seen):
            continue
        seen.append(method)
        for node in walk(method):
            if (type(node) is cst.Call and type(node.func) is cst.Attribute and type(node.func.value) is cst.Name
                    and node.func.value.value == "self"):
                todo.append(node.func.attr.value)
    return seen


def _combined(ctx: Context, expr: cst.CSTNode, parents: dict[int, cst.CSTNode], inputs: set[str],
              methods: dict[str, cst.FunctionDef]) -> bool:
    """`expr` meets the module's inputs or parameters: arithmetic with an input (or a value computed from one), an
    argument of a submodule call (`self.lstm(x, (h0, c0))`), or of `torch.cat`/`stack`/... beside an input."""
    current = expr
    for _ in range(4):
        parent = parents.get(id(current))
        if type(parent) is cst.BinaryOperation and type(parent.operator) in ARITHMETIC:
            other = parent.right if parent.left is current else parent.left
            if any(type(n) is cst.Call and ctx.qualname(n.func) in CREATIONS for n in walk(other)):
                return False  # two new CPU tensors together
            return _mentions_input(other, inputs, methods)
        if type(parent) is cst.ComparisonTarget:
            parent = parents.get(id(parent))  # `lengths[:, None] <= torch.arange(t)`
        if type(parent) is cst.Comparison and not any(type(t.operator) in _IDENTITY for t in parent.comparisons):
            # `torch.arange(t)[None, :] >= lengths[:, None]`: an elementwise comparison needs one device too
            others = [o for o in (parent.left, *(t.comparator for t in parent.comparisons))
                      if o is not current]
            if any(type(n) is cst.Call and ctx.qualname(n.func) in CREATIONS for o in others for n in walk(o)):
                return False
            if all(_constant(ctx, o) for o in others):
                current = parent  # `causal == 0`: a CPU mask, combined where it is used
                continue
            return any(not is_int(ctx, o) and _mentions_input(o, inputs, methods) for o in others)
        if type(parent) in (cst.Element, cst.Tuple, cst.List, cst.UnaryOperation) \
                or type(parent) is cst.Subscript and parent.value is current:
            current = parent  # `freqs[None, :]` and `~mask` are still the CPU tensor
            continue
        if type(parent) is cst.Arg:
            call = parents.get(id(parent))
            if type(call) is not cst.Call:
                return False
            if _submodule_call(call, methods):
                attribute = call.func.attr.value  # type: ignore[attr-defined]
                layers = [torch_layer(ctx, value) for value in _submodule_constructions(ctx, attribute, methods)]
                if layers and all(layer in PARAMETER_FREE for layer in layers):
                    current = call  # `self.drop(torch.ones(n, d))`: no weights, the output is where the input is
                    continue
                # `self.lstm(x, (h0, c0))`: a torch.nn layer's weights are on the device. Any other module decides
                # in its own `forward` what it does with the tensor (`self.lm(tokens, torch.ones(b))` of a
                # language model hands lengths to `pack_padded_sequence`, which wants them on the CPU).
                return bool(layers) and None not in layers
            if type(call.func) is cst.Attribute and call.func.attr.value in _COMBINING_METHODS \
                    and ctx.qualname(call.func) is None:
                return _mentions_input(call.func.value, inputs, methods)  # `x.masked_select(mask)`
            if ctx.qualname(call.func) in _COMBINING:  # `torch.cat([x, pad])`: another argument or element
                if follow_tensor(call, parents)[1]:
                    return False  # `torch.cat([torch.ones(n), torch.zeros(m)]).to(x.device)`: placed once joined
                others = [arg.value for arg in call.args if arg is not parent]
                others += [e for e in walk(parent.value) if type(e) is cst.Element and e is not current]
                return any(_mentions_input(other, inputs, methods) for other in others)
            return False
        return False
    return False


def _constant(ctx: Context, expr: cst.BaseExpression) -> bool:
    """A number or a boolean literal: a comparison with it keeps the tensor where it was."""
    return type(expr) is cst.Float or type(expr) is cst.Name and expr.value in ("True", "False") or is_int(ctx, expr)


def _filled(use: cst.Name, parents: dict[int, cst.CSTNode]) -> bool:
    """`buffer[i] = value`: the tensor is a buffer written element by element."""
    parent = parents.get(id(use))
    if type(parent) is not cst.Subscript or parent.value is not use:
        return False
    target = parents.get(id(parent))
    return type(target) is cst.AssignTarget


def _returned_at(expr: cst.CSTNode, parents: dict[int, cst.CSTNode]) -> int | None:
    """The position of `expr` in the tuple a `return` gives back (`return x, t_span`: 1 for `t_span`); None when it
    is returned alone or the tuple has a starred element."""
    element = parents.get(id(expr))
    returned = parents.get(id(element))
    if type(element) is not cst.Element or type(returned) is not cst.Tuple \
            or type(parents.get(id(returned))) is not cst.Return \
            or any(type(other) is not cst.Element for other in returned.elements):
        return None
    return next(i for i, other in enumerate(returned.elements) if other is element)


def _at_position(target: cst.BaseExpression, position: int | None) -> cst.BaseExpression:
    """What of an unpacking target binds the returned tuple's element at `position` (`t_span` of `x, t_span`); the
    whole target when that can't be told."""
    if position is None or type(target) not in (cst.Tuple, cst.List) \
            or any(type(element) is not cst.Element for element in target.elements) \
            or len(target.elements) <= position:
        return target
    return target.elements[position].value


def _returned(expr: cst.CSTNode, parents: dict[int, cst.CSTNode]) -> bool:
    """A helper's `return torch.zeros(...)`: its caller in `forward` combines it (a method reached from forward)."""
    parent = parents.get(id(expr))
    while type(parent) in (cst.Element, cst.Tuple):
        parent = parents.get(id(parent))
    return type(parent) is cst.Return


def _classes_mentioning_device(statement: cst.CSTNode) -> frozenset[cst.CSTNode]:
    return frozenset(node for node in walk_statements(statement)
                     if type(node) is cst.ClassDef and _mentions_device(node))


def _mentions_device(class_def: cst.ClassDef) -> bool:
    """A name, attribute, keyword or string in the class says "device" (`self.device`, `device=`, `"cuda"` does
    not count). Read from the nodes: generating the class's code to search it cost more than the rule."""
    for node in walk(class_def):
        kind = type(node)
        if kind is cst.Name and "device" in node.value or kind is cst.SimpleString and "device" in node.value:
            return True
    return False
