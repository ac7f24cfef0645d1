"""SC101 view-after-transpose: `.view(...)` that merges dimensions a transpose or permute left out of memory order."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Fix, Invalid, Rule
from shapecheck.shapes import runs
from shapecheck.shapes.conflicts import view_layout
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator


# Time-major attention heads merged back after `torch.bmm` and `.transpose(0, 1)`: `%s` are the method and its sizes.
_TIME_MAJOR_HEADS = """
        import torch
        def attend(q, k, v, num_heads):
            T, B, E = q.shape
            D = E // num_heads
            q = q.contiguous().view(T, B * num_heads, D).transpose(0, 1)
            k = k.contiguous().view(-1, B * num_heads, D).transpose(0, 1)
            v = v.contiguous().view(-1, B * num_heads, D).transpose(0, 1)
            out = torch.bmm(torch.softmax(torch.bmm(q, k.transpose(1, 2)), -1), v)
            return out.transpose(0, 1).%s(%s)
        """


# An SSD-style head: boxes are `(N, A * 4, H, W)`, one 4-vector per anchor and cell; `%s` is the boxes' flattening.
_BOX_HEAD = """
        import torch
        import torch.nn as nn

        class BoxHead(nn.Module):
            def __init__(self, in_channels=64, num_anchors=6, num_classes=21):
                super().__init__()
                self.num_classes = num_classes
                self.cls_logits = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
                self.bbox_pred = nn.Conv2d(in_channels, num_anchors * 4, 3, padding=1)

            def forward(self, features):
                scores, boxes = [], []
                for feat in features:
                    n = feat.size(0)
                    logits = self.cls_logits(feat).permute(0, 2, 3, 1)
                    scores.append(logits.contiguous().view(n, -1, self.num_classes))
                    boxes.append(self.bbox_pred(feat).permute(0, 2, 3, 1).%s)
                return torch.cat(scores, 1), torch.cat(boxes, 1)

        head = BoxHead()
        scores, boxes = head([torch.randn(2, 64, 16, 16), torch.randn(2, 64, 8, 8)])
        """


# Self-attention over a feature map's positions, heads laid out `(B, heads, d, H * W)`: `%s` merges them back.
_MAP_ATTENTION = """
        import torch
        import torch.nn as nn

        class SpatialSelfAttention(nn.Module):
            def __init__(self, channels, num_heads=4):
                super().__init__()
                self.num_heads, self.head_dim = num_heads, channels // num_heads
                self.qkv = nn.Conv2d(channels, channels * 3, 1)

            def forward(self, x):
                b, c, h, w = x.shape
                q, k, v = self.qkv(x).reshape(b, 3, self.num_heads, self.head_dim, h * w).unbind(1)
                attn = torch.softmax(q.transpose(-2, -1) @ k, dim=-1)
                out = attn @ v.transpose(-2, -1)
                return x + out.transpose(-2, -1).%s

        block = SpatialSelfAttention(32)
        y = block(torch.randn(2, 32, 16, 16))
        """


class ViewAfterTranspose(Rule):
    code = "SC101"
    name = "view-after-transpose"
    severity = "error"  # `.view` on a non-contiguous tensor raises
    raises = True  # not reported where a test expects the error
    message = "`.view(...)` merges dims that a transpose left non-contiguous: use `.reshape(...)` or " \
              "`.contiguous().view(...)`"
    fixable = "safe"
    triggers = (".view(",)
    triggered_through_imports = True  # reports at a call what a first-party module does (see Rule)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds `.view(...)` on a tensor whose layout was changed by `.transpose`, `.permute`, `.t()`, `.T`, `.mT`,
        `.swapaxes`/`.swapdims`, `.movedim` (or their `torch.*` forms), chained or through local names, with no
        `.contiguous()` in between, when the view merges dimensions that are no longer adjacent in memory:
        `.view(-1)`, `.view(B, -1)` over the swapped dims, sizes that show the merge (`B, T, H * D`, or
        `x.size()[:-2] + (n * d,)`), or a view with fewer sizes than the permuted tensor has separate runs of memory
        (`(att @ v).transpose(1, 2).view(B, T, C)` on a 4-d tensor: four runs, three sizes), which must merge
        across one whatever the sizes are, or sizes that split a dim and leave its inner part to the last size
        (`torch.bmm(p, v).transpose(0, 1).view(T, B, E)` of time-major heads, `(T, B * H, D)`: the last size
        merges `H` with `D`, and `T` lies between them in memory), or sizes none of which ends where one run of
        memory ends and the next begins (a detection head's `conv(x).permute(0, 2, 3, 1).view(N, -1, 4)` of `(N, A
        * 4, H, W)` boxes: `-1` merges `H`, `W` and `A`, and `A` lies outside `H` and `W` in memory; heads merged
        back into channels by `out.transpose(-2, -1).view(B, C, H, W)` of `(B, heads, d, H * W)`).

        It reads the shape analysis (see "Shape analysis"): the rank and sizes come from jaxtyping annotations,
        `B, T, C = x.shape`, constructors, layers, views and the permute itself; the layout from what each step did
        to it, through local names and along the code's branches.

        Views that work are not reported: splitting one dimension (`x.transpose(1, 2).view(B, C, H, W)` from
        `B, N, C = x.shape`), merging dimensions the permute kept in order (`x.permute(0, 2, 3, 1).view(b, h * w,
        c)`), views that keep the shape, `.view(dtype)`, views whose sizes can't be matched to dimensions, and views whose
        own 1s at their ends stand where a dim of unknown size does (`img.permute(1, 2, 0).view(-1, 1)` of a
        grayscale image: with that dim 1, nothing merges out of order), and `.t()` of a tensor whose rank the code
        does not state (`(output >= 0.5).float().t().view(-1)` of a parameter: `.t()` keeps a 1-d tensor as it is).
        The
        tensor before the permutation must be one the code shows to be plain: a parameter, a fresh result (matmul,
        a module, a `view`/`reshape` of such), not a slice of a permuted tensor, an unpacked RNN output or a
        `scaled_dot_product_attention`/`einsum` result, which may come back as transposed views; a permute under
        `if t.is_contiguous(memory_format=...)` is taken to know what it does.

        ## Why is this bad?
        The primer: "view requires contiguous memory. After transpose or permute, the underlying storage layout no
        longer matches the logical shape. view will raise; either call .contiguous() first or use reshape (which
        calls contiguous internally if needed)." The error ("view size is not compatible with input tensor's size
        and stride") only appears at run time, often only for some shapes: a dimension of size 1 hides it in a
        test and the first real batch crashes.

        ## Example
        ```python
        B, N, C = x.shape
        y = x.transpose(1, 2).view(B, -1)  # merges dims 1 and 2 of the transposed tensor
        ```

        ## Use instead
        ```python
        y = x.transpose(1, 2).reshape(B, -1)
        # or
        y = x.transpose(1, 2).contiguous().view(B, -1)
        ```

        ## Fix
        Safe: `.view(...)` becomes `.reshape(...)` with the same arguments; it copies only when it has to.
    """
    VALID = [
        # nanoGPT: the merge comes after `.contiguous()`
        """
        import torch
        def merge_heads(y, B, T, C):
            return y.transpose(1, 2).contiguous().view(B, T, C)
        """,
        # Swin / PVT: splitting one dimension back into two is always a valid view
        """
        import torch
        def to_image(x, H, W):
            B, N, C = x.shape
            return x.transpose(1, 2).view(B, C, H, W)
        """,
        # NCHW -> NHWC, then merging H and W, which stay adjacent and in order
        """
        import torch
        def tokens(x):
            b, c, h, w = x.shape
            return x.permute(0, 2, 3, 1).view(b, h * w, c)
        """,
        # the same merge with `-1`
        """
        import torch
        def tokens(x):
            B, C, H, W = x.size()
            return x.permute(0, 2, 3, 1).view(B, -1, C)
        """,
        # same shape, only swapped back by name
        """
        import torch
        def time_major(x):
            B, T, C = x.shape
            y = x.transpose(0, 1)
            return y.view(T, B, C)
        """,
        # `.view(dtype)` reinterprets the bytes, it doesn't merge dims
        """
        import torch
        bits = weight.t().view(torch.int16)
        """,
        # a `.contiguous()` between, through a name
        """
        import torch
        def flat(x):
            x = x.transpose(1, 2)
            x = x.contiguous()
            return x.view(x.size(0), -1)
        """,
        # the sizes are arbitrary expressions: nothing shows which dims are merged
        """
        import torch
        def f(x, shape):
            return x.permute(0, 2, 1).view(shape[0], shape[1] // 2, -1)
        """,
        # numpy's `.view` is a dtype view and `.T` is free
        """
        import numpy as np
        import torch
        a = np.random.randn(4, 3).T.view(np.float32)
        """,
        # the transpose is in the other branch
        """
        import torch
        def f(x, batch_first):
            B = x.size(0)
            if batch_first:
                x = x.transpose(0, 1)
                return x.reshape(B, -1)
            else:
                return x.view(B, -1)
        """,
        # a batch_first LSTM hands back a transposed view: transposing it again makes it contiguous
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.LSTM(32, 64, batch_first=True)
            def forward(self, x):
                out, _ = self.rnn(x)
                T = out.size(1)
                return out.transpose(0, 1).view(T, -1)
        """,
        # pytorch/examples word_language_model: a time-major RNN's output is fresh, its first two dims merge
        """
        import torch.nn as nn
        class RNNModel(nn.Module):
            def __init__(self, ntoken, ninp, nhid, nlayers):
                super().__init__()
                self.encoder = nn.Embedding(ntoken, ninp)
                self.rnn = nn.LSTM(ninp, nhid, nlayers)
                self.decoder = nn.Linear(nhid, ntoken)
            def forward(self, input, hidden):
                emb = self.encoder(input)
                output, hidden = self.rnn(emb, hidden)
                decoded = self.decoder(output.view(output.size(0) * output.size(1), output.size(2)))
                return decoded.view(output.size(0), output.size(1), decoded.size(1)), hidden
        """,
        # apex: the permute is there to make a channels-last tensor contiguous
        """
        import torch
        def flat(param):
            if param.is_contiguous(memory_format=torch.channels_last):
                param = param.permute(0, 2, 3, 1)
            return param.detach().view(-1)
        """,
        # `.T` of a vector changes nothing; splitting the first dim of a transposed matrix is a view
        """
        import torch
        v = torch.arange(6).T.view(2, 3)
        w = torch.randn(64, 128).T.view(64, 2, 64)
        """,
        # reshape, then view: the reshape copied the merged dims
        """
        import torch
        def tokens(x):
            B, C, H, W = x.shape
            y = x.permute(0, 2, 3, 1).reshape(B, H * W * C)
            return y.view(B, H * W, C)
        """,
        # the permuted tensor was made by a view of a transposed one: the layouts cancel, nothing to tell
        """
        import torch
        def roundtrip(x, H, W):
            B, N, C = x.shape
            y = x.transpose(1, 2).view(B, C, H, W)
            return y.permute(0, 2, 3, 1).view(B, -1)
        """,
        # a loader's collate_fn makes the frames time-major: the model merges them with a reshape
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset

        class MelClips(Dataset):
            def __init__(self, n=32):
                self.mels = torch.randn(n, 80, 100)

            def __len__(self):
                return len(self.mels)

            def __getitem__(self, i):
                return self.mels[i], i % 10

        def collate_frames(batch):
            mels, labels = zip(*batch)
            # (batch, n_mels, frames) -> (batch, frames, n_mels)
            return torch.stack(mels).transpose(1, 2), torch.tensor(labels)

        class FrameClassifier(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(80, 10)

            def forward(self, x):
                B, T, F = x.shape
                return self.proj(x.reshape(B * T, F)).view(B, T, -1).mean(1)

        model = FrameClassifier()
        for mel, label in DataLoader(MelClips(), batch_size=8, shuffle=True, collate_fn=collate_frames):
            loss = nn.functional.cross_entropy(model(mel), label)
        """,
        # vsitzmann/siren: a grayscale image's channel moved last; `view(-1, 1)` puts a 1 where that dim stands, and
        # with one channel the view merges only H and W
        """
        import torch
        from torchvision.transforms import Compose, Normalize, Resize, ToTensor

        def get_cameraman_tensor(sidelength):
            transform = Compose([Resize(sidelength), ToTensor(), Normalize(torch.Tensor([0.5]), torch.Tensor([0.5]))])
            return transform(Image.fromarray(skimage.data.camera()))

        class ImageFitting(torch.utils.data.Dataset):
            def __init__(self, sidelength):
                img = get_cameraman_tensor(sidelength)
                self.pixels = img.permute(1, 2, 0).view(-1, 1)
        """,
        # wenwenyu/MASTER-pytorch: `output` may be (B,) or (B, 1), whose `.t()` is a view of the same memory order
        """
        import torch
        def binary_accuracy(output: torch.Tensor, target: torch.Tensor) -> float:
            with torch.no_grad():
                batch_size = target.size(0)
                pred = (output >= 0.5).float().t().view(-1)
                correct = pred.eq(target.view(-1)).float().sum()
                return correct.mul_(100. / batch_size)
        """,
        # top-1 predictions are (B, 1): the transposed column is still one run of memory
        """
        import torch
        def top1_correct(logits, target):
            B, C = logits.shape
            pred = logits.topk(1, 1)[1]
            return pred.t().view(-1).eq(target).sum()
        """,
        _MAP_ATTENTION % "reshape(b, c, h, w)",
        # the boxes made contiguous like the scores, or split into anchors without merging anything
        _BOX_HEAD % "contiguous().view(n, -1, 4)",
        _BOX_HEAD % "view(n, feat.size(2), feat.size(3), -1, 4)",
        # splitting the heads back out, or merging a split dim's inner part with the dim after it in memory
        _TIME_MAJOR_HEADS % ("view", "T, B, num_heads, D"),
        """
        import torch
        def per_group(x, groups):
            N, C, L, D = x.shape
            return x.transpose(0, 1).view(C, N, groups, -1)
        """,
    ]
    INVALID = [
        # the boxes flattened without the `.contiguous()` the scores have: `-1` merges H, W and the anchors
        _BOX_HEAD % "view(n, -1, 4)",
        # heads merged back into channels while the positions are split back into rows: `-1` or not, the
        # transposed head dims are not next in memory
        _MAP_ATTENTION % "view(b, c, h, w)",
        # time-major heads merged back: the transposed (T, B * H, D) has T between H and D in memory
        Invalid(_TIME_MAJOR_HEADS % ("view", "T, B, -1"), fixed=_TIME_MAJOR_HEADS % ("reshape", "T, B, -1")),
        Invalid(
            """
            import torch
            def flatten_tokens(x):
                B, N, C = x.shape
                return x.transpose(1, 2).view(B, -1)
            """,
            fixed="""
            import torch
            def flatten_tokens(x):
                B, N, C = x.shape
                return x.transpose(1, 2).reshape(B, -1)
            """,
        ),
        # the primer's own example
        Invalid(
            """
            import torch
            x = torch.randn(2, 3).transpose(0, 1)
            y = x.view(6)
            """,
            fixed="""
            import torch
            x = torch.randn(2, 3).transpose(0, 1)
            y = x.reshape(6)
            """,
        ),
        # merging heads back without `.contiguous()`
        Invalid(
            """
            import torch
            def merge_heads(y, B, T, n_head, head_dim):
                y = y.view(B, n_head, T, head_dim).transpose(1, 2)
                return y.view(B, T, n_head * head_dim)
            """,
            fixed="""
            import torch
            def merge_heads(y, B, T, n_head, head_dim):
                y = y.view(B, n_head, T, head_dim).transpose(1, 2)
                return y.reshape(B, T, n_head * head_dim)
            """,
        ),
        # attention heads merged back without `.contiguous()`: four runs of memory, three sizes
        Invalid(
            """
            import math
            import torch
            import torch.nn.functional as F
            def attention(q, k, v, B, T, C, nh):
                q = q.view(B, T, nh, C // nh).transpose(1, 2)
                k = k.view(B, T, nh, C // nh).transpose(1, 2)
                v = v.view(B, T, nh, C // nh).transpose(1, 2)
                att = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.size(-1)), dim=-1)
                y = att @ v
                return y.transpose(1, 2).view(B, T, C)
            """,
            fixed="""
            import math
            import torch
            import torch.nn.functional as F
            def attention(q, k, v, B, T, C, nh):
                q = q.view(B, T, nh, C // nh).transpose(1, 2)
                k = k.view(B, T, nh, C // nh).transpose(1, 2)
                v = v.view(B, T, nh, C // nh).transpose(1, 2)
                att = F.softmax(q @ k.transpose(-2, -1) / math.sqrt(k.size(-1)), dim=-1)
                y = att @ v
                return y.transpose(1, 2).reshape(B, T, C)
            """,
        ),
        """
        import torch
        def pool(h):
            return h.permute(1, 0, 2).view(-1)
        """,
        """
        import torch as th
        def channels(x):
            b, c, h, w = x.size()
            return th.transpose(x, 1, 3).view(b, w * h * c)
        """,
        """
        import torch
        def last(x):
            B, T, C = x.shape
            y = x.mT
            return y.view(B, -1)
        """,
        # `.T` of a matrix the code made, flattened
        """
        import torch
        w = torch.randn(64, 128)
        flat = w.T.view(-1)
        """,
        # the transpose kept in a name, then viewed with a product of sizes
        """
        import torch
        def merge(x):
            B, H, T, D = x.shape
            y = x.transpose(1, 2)
            return y.view(B, T, H * D)
        """,
        # sizes built from the permuted tensor's own `.size()`
        """
        import torch
        def merge_heads(scores, v, all_head_size):
            context = torch.matmul(scores, v).permute(0, 2, 1, 3)
            new_shape = context.size()[:-2] + (all_head_size,)
            return context.view(new_shape)
        """,
        # an RGB image's channels moved last, flattened to one column: the channel dim is known not to be 1
        """
        import torch
        img = torch.rand(3, 64, 64)
        pixels = img.permute(1, 2, 0).view(-1, 1)
        """,
        # a rank only the annotation states
        """
        import torch
        from jaxtyping import Float
        def flat(x: Float[torch.Tensor, "N D"]) -> Float[torch.Tensor, "N*D"]:
            return x.T.view(-1)
        """,
        # a time-major GRU's output is row-major: batch first by a transpose, its (N, L) dims can't merge in a view
        """
        import torch
        import torch.nn as nn
        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.gru = nn.GRU(64, 128, num_layers=2, bidirectional=True)
            def forward(self, x):
                L, N, _ = x.shape
                states, _ = self.gru(x)
                return states.transpose(0, 1).view(N, -1)
        """,
        # a rank from a layer
        """
        import torch
        import torch.nn as nn
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(32, 16)
            def forward(self, x):
                B, T, C = x.shape
                return self.fc(x).mT.view(B, -1)
        """,
        # an audio clip's frames made time-major by the loader's `collate_fn`, viewed in the model
        Invalid(
            """
            import torch
            import torch.nn as nn
            from torch.utils.data import DataLoader, Dataset

            class MelClips(Dataset):
                def __init__(self, n=32):
                    self.mels = torch.randn(n, 80, 100)

                def __len__(self):
                    return len(self.mels)

                def __getitem__(self, i):
                    return self.mels[i], i % 10

            def collate_frames(batch):
                mels, labels = zip(*batch)
                # (batch, n_mels, frames) -> (batch, frames, n_mels)
                return torch.stack(mels).transpose(1, 2), torch.tensor(labels)

            class FrameClassifier(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.proj = nn.Linear(80, 10)

                def forward(self, x):
                    B, T, F = x.shape
                    return self.proj(x.view(B * T, F)).view(B, T, -1).mean(1)

            model = FrameClassifier()
            for mel, label in DataLoader(MelClips(), batch_size=8, shuffle=True, collate_fn=collate_frames):
                loss = nn.functional.cross_entropy(model(mel), label)
            """,
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        ev = evaluator(self.ctx)
        if type(func) is not cst.Attribute or func.attr.value != "view" or not node.args:
            # a transposed tensor handed to the project's code that views it (`self.block(x.transpose(1, 2))`)
            where = runs.found_at_call(ev, node, _layout)
            if where is not None:
                self.report(*where)
            return
        conflict = ev.layout_conflict(node)
        if conflict is None or self.ctx.is_foreign(func.value):
            return
        message = f"{_view(ev, node)} {conflict.message}: use `.reshape(...)` or `.contiguous().view(...)`"
        new = node.with_changes(func=func.with_changes(attr=cst.Name("reshape")))
        self.report(node, message, Fix("Use `.reshape(...)`", ((node, new),)))


def _layout(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """A view, in the project's code a call runs, that merges dims out of memory order on the call's values."""
    if type(node) is not cst.Call or type(node.func) is not cst.Attribute or node.func.attr.value != "view":
        return None
    conflict = view_layout(ev, node, before)
    if conflict is None:
        return None
    return f"{_view(ev, node)} {conflict.message}: use `.reshape(...)` or `.contiguous().view(...)` there"


def _view(ev: ShapeEvaluator, node: cst.Call) -> str:
    arguments = ", ".join((f"{arg.keyword.value}=" if arg.keyword else "") + arg.star + ev.ctx.code(arg.value)
                          for arg in node.args)
    return f"`.view({arguments})`"
