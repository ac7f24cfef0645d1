"""torch.nn.functional: convolutions, pooling, padding, interpolation, embeddings, attention, losses."""

from __future__ import annotations

from tests.helpers import lint
from tests.shapes.probe import probe


def test_convolutions_and_pooling() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        x = torch.randn(8, 3, 32, 32)
        w = torch.randn(16, 3, 5, 5)
        probe(F.conv2d(x, w))
        probe(F.conv2d(x, w, stride=2, padding=2))
        probe(F.conv2d(x, w, padding="same"))
        probe(F.max_pool2d(x, 2))
        probe(F.avg_pool2d(x, kernel_size=3, stride=1, padding=1))
        probe(F.adaptive_avg_pool2d(x, (1, 1)))
        probe(F.max_pool2d(x, 2, ceil_mode=True))
        probe(F.conv1d(torch.randn(4, 3, 100), torch.randn(8, 3, 7), dilation=2))
    ''') == ["(8, 16, 28, 28)", "(8, 16, 16, 16)", "(8, 16, 32, 32)", "(8, 3, 16, 16)", "(8, 3, 32, 32)",
             "(8, 3, 1, 1)", None, "(4, 8, 88)"]


def test_symbolic_windows() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(x: Float[torch.Tensor, "B C H W"], w: Float[torch.Tensor, "O C 3 3"]):
            probe(F.conv2d(x, w, padding=1))
            probe(F.conv2d(x, w))
            probe(F.pad(x, (1, 1, 2, 2)))
            probe(F.interpolate(x, scale_factor=2))
            probe(F.interpolate(x, size=(64, 64)))
            probe(F.interpolate(x, scale_factor=2.0, mode="nearest"))  # an FPN's top-down path: a whole float
            probe(F.interpolate(x, scale_factor=1.5))  # each size rounded down: not followed
    ''') == ["(B, O, H, W)", "(B, O, H - 2, W - 2)", "(B, C, H + 4, W + 2)", "(B, C, 2 * H, 2 * W)",
             "(B, C, 64, 64)", "(B, C, 2 * H, 2 * W)", None]


def test_interpolation_rejects_sizes_and_modes_for_another_rank() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        audio, img = torch.randn(4, 1, 16000), torch.randn(2, 3, 32, 32)
        probe_conflict(F.interpolate(audio, size=(400, 400), mode="linear"))
        probe_conflict(F.interpolate(img, scale_factor=2, mode="linear"))
        probe_conflict(F.interpolate(img.flatten(1), size=10))
        probe_conflict(F.interpolate(img, (16, 16, 16)))
        probe_conflict(F.interpolate(audio, size=400, mode="linear"))
        probe_conflict(F.interpolate(img, scale_factor=(2, 2), mode="bicubic"))
        probe_conflict(F.interpolate(img, size=img.shape[-2:], mode="nearest"))
    ''') == [
        '`F.interpolate(audio, size=(400, 400), mode="linear")`: audio is (4, 1, 16000): 1 spatial dim, but size '
        'gives 2',
        '`F.interpolate(img, scale_factor=2, mode="linear")`: img is (2, 3, 32, 32): 4 dims, but mode "linear" '
        'needs 3',
        "`F.interpolate(img.flatten(1), size=10)`: img.flatten(1) is (2, 3072): 2 dims, but interpolation takes 3 "
        "to 5 (batch, channels, 1 to 3 spatial dims)",
        "`F.interpolate(img, (16, 16, 16))`: img is (2, 3, 32, 32): 2 spatial dims, but size gives 3",
        None, None, None]


def test_interpolation_reads_sizes_held_in_names_entries_and_attributes() -> None:
    # a config's `out_size`, the instance's `self.size` or a skip connection's `shape[2:]`, not only a literal
    assert probe('''
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        cfg = {"out_size": (1, 64, 64), "scale": 2}
        img, volume = torch.randn(2, 3, 32, 32), torch.randn(2, 3, 8, 32, 32)
        size = cfg["out_size"]
        probe_conflict(F.interpolate(img, size=size, mode="bilinear"))
        probe_conflict(F.interpolate(img, size=volume.shape[2:]))
        probe_conflict(F.interpolate(volume, size=cfg["out_size"]))
        probe_conflict(F.interpolate(img, size=volume.shape[-2:]))
        probe_conflict(F.interpolate(img, size=cfg["scale"] * 32))

        class Up(nn.Module):
            def __init__(self, size=(64, 64)):
                super().__init__()
                self.size = size

            def forward(self, x):
                return F.interpolate(x, size=self.size)

        probe_conflict(Up()(torch.randn(2, 3, 8, 32, 32)))
        probe_conflict(Up()(img))
    ''') == [
        "`F.interpolate(img, size=size, mode=\"bilinear\")`: img is (2, 3, 32, 32): 2 spatial dims, but size `size` "
        "gives 3",
        "`F.interpolate(img, size=volume.shape[2:])`: img is (2, 3, 32, 32): 2 spatial dims, but size "
        "`volume.shape[2:]` gives 3",
        None, None, None,
        "`Up()(torch.randn(2, 3, 8, 32, 32))`: the input is (2, 3, 8, 32, 32): then in Up.forward, "
        "`F.interpolate(x, size=self.size)`: x is (2, 3, 8, 32, 32): 3 spatial dims, but size `self.size` gives 2",
        None]


def test_interpolation_to_the_sizes_of_another_map() -> None:
    """A decoder resizing its coarse map to the skip's own sizes (`size=skip.shape[-2:]`, `size=tuple(x.shape[2:])`)
    gives those sizes, so what it is joined with or scored against is checked; a held int is every spatial size and
    a sequence of another length says nothing."""
    assert probe('''
        import torch
        import torch.nn.functional as F
        skip, coarse = torch.randn(2, 8, 50, 38), torch.randn(2, 16, 25, 19)
        probe(F.interpolate(coarse, size=skip.shape[-2:], mode="bilinear", align_corners=False))
        probe(F.interpolate(coarse, skip.shape[2:]))
        side = skip.shape[-1]
        probe(F.interpolate(coarse, size=side))
        probe(F.interpolate(coarse, size=skip.shape[1:]))
        volume = torch.randn(1, 4, 6, 10, 10)
        probe(F.interpolate(volume, size=torch.randn(1, 4, 12, 20, 20).shape[2:], mode="trilinear"))
    ''') == ["(2, 16, 50, 38)", "(2, 16, 50, 38)", "(2, 16, 38, 38)", None, "(1, 4, 12, 20, 20)"]


def test_embeddings_and_attention() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        def f(ids: Int[torch.Tensor, "B T"], table: Float[torch.Tensor, "V D"], q: Float[torch.Tensor, "B H T E"],
              v: Float[torch.Tensor, "B H S F"]):
            probe(F.embedding(ids, table))
            probe(F.one_hot(ids, 10))
            probe(F.scaled_dot_product_attention(q, q, v))
            probe_layout(F.scaled_dot_product_attention(q, q, v))
    ''') == ["(B, T, D)", "(B, T, 10)", "(B, H, T, F)", None]


def test_losses_follow_their_reduction() -> None:
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        def f(pred: Float[torch.Tensor, "N 1"], y: Float[torch.Tensor, "N"], logits: Float[torch.Tensor, "B C"],
              t: Int[torch.Tensor, "B"], seq: Float[torch.Tensor, "B C T"], tt: Int[torch.Tensor, "B T"]):
            probe(F.mse_loss(pred, y))
            probe(F.mse_loss(pred, y, reduction="none"))
            probe(F.l1_loss(pred, pred, reduction="sum"))
            probe(F.cross_entropy(logits, t, reduction="none"))
            probe(F.cross_entropy(seq, tt, reduction="none"))
            probe(F.cross_entropy(logits, t))
            probe(F.mse_loss(pred, y, reduction=mode))
    ''') == ["()", "(N, N)", "()", "(B,)", "(B, T)", "()", None]


def test_an_unreduced_class_loss_keeps_its_inputs_rows_whatever_the_target() -> None:
    """Class indices or class probabilities, the per-element loss is the input without its class dim: a target of
    unknown shape (labels a model or a loader returns) leaves it known; an element-wise loss needs the target, a
    binary one does not (torch raises unless the target has the input's shape)."""
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(logits: Float[torch.Tensor, "B C"], seq: Float[torch.Tensor, "B C T"], scores: Float[torch.Tensor, "C"],
              pred: Float[torch.Tensor, "B 1"], labels):
            probe(F.cross_entropy(logits, labels, reduction="none"))
            probe(F.nll_loss(seq, labels, reduction="none"))
            probe(F.cross_entropy(scores, labels, reduction="none"))
            probe(F.mse_loss(pred, labels, reduction="none"))
            probe(F.binary_cross_entropy_with_logits(pred, labels, reduction="none"))
            probe(torch.nn.BCELoss(reduction="none")(pred.sigmoid(), labels))
    ''') == ["(B,)", "(B, T)", None, "(...)", "(B, 1)", "(B, 1)"]


def test_upsample_is_interpolate_by_its_deprecated_name() -> None:
    """Older segmentation code (pytorch-semseg's FCN and PSPNet heads) calls `F.upsample`, which torch still runs
    as `F.interpolate` with the same parameters: the same sizes, and the same rank checks."""
    assert probe('''
        import torch
        import torch.nn.functional as F
        x = torch.randn(2, 21, 15, 20)
        probe(F.upsample(x, size=(60, 80), mode="bilinear"))
        probe(F.upsample(x, scale_factor=4))
        probe(torch.nn.functional.upsample(x, (30, 40)))
        probe_conflict(F.upsample(x, size=(60, 80, 5)))
    ''') == ["(2, 21, 60, 80)", "(2, 21, 60, 80)", "(2, 21, 30, 40)",
             "`F.upsample(x, size=(60, 80, 5))`: x is (2, 21, 15, 20): 2 spatial dims, but size gives 3"]


def test_pairwise_distance_gives_one_distance_per_row() -> None:
    """A siamese or triplet loss's distances: the norm over the last dim, one per pair, so a contrastive loss built
    on them is (N,) until it is reduced."""
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(a: Float[torch.Tensor, "N D"], b: Float[torch.Tensor, "N D"], x):
            probe(F.pairwise_distance(a, b))
            probe(F.pairwise_distance(a, b, keepdim=True))
            probe(torch.pairwise_distance(a, b[0]))
            probe(F.pairwise_distance(a, x))
            probe(F.pairwise_distance(torch.randn(8), torch.randn(8)))
    ''') == ["(N,)", "(N, 1)", "(N,)", None, "()"]


def test_one_hot_without_a_class_count_has_a_class_dim_of_the_datas_own() -> None:
    """One more class than the largest label: a size the code does not state, which may be 1, but a dim all the
    same, so that a Dice loss over `F.one_hot(target)` keeps the probabilities' classes."""
    assert probe('''
        import torch
        import torch.nn.functional as F
        from jaxtyping import Float, Int
        def f(probs: Float[torch.Tensor, "B C H W"], target: Int[torch.Tensor, "B H W"]):
            probe(F.one_hot(target))
            probe(F.one_hot(target, -1))
            probe((probs * F.one_hot(target).permute(0, 3, 1, 2)).sum((0, 2, 3)))
    ''') == ["(B, H, W, num_classes)", "(B, H, W, num_classes)", "(C|num_classes,)"]


def test_an_item_of_a_count_per_class_of_one_hot_labels_may_be_one_element() -> None:
    """SC107: the counts per class of one-hot labels may be one count (every label 0); a Dice loss's values per class
    of the probabilities are as many as their classes."""
    source = """
import torch
import torch.nn.functional as F
labels = torch.randint(0, 4, (32,))
print(F.one_hot(labels).sum(0).item())
probs = torch.rand(8, 4, 16, 16).softmax(1)
target = torch.randint(0, 4, (8, 16, 16))
print((probs * F.one_hot(target).permute(0, 3, 1, 2)).sum((0, 2, 3)).item())
"""
    assert [f.location.row for f in lint(source, "SC107").findings] == [8]


def test_a_hinge_embedding_loss_keeps_a_value_per_pair_unreduced() -> None:
    assert probe('''
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from jaxtyping import Float
        def f(a: Float[torch.Tensor, "N D"], b: Float[torch.Tensor, "N D"], y: Float[torch.Tensor, "N"]):
            dist = F.pairwise_distance(a, b)
            probe(F.hinge_embedding_loss(dist, y, reduction="none"))
            probe(nn.HingeEmbeddingLoss(margin=2.0, reduction="none")(dist, y))
            probe(F.hinge_embedding_loss(dist, y))
            probe(F.hinge_embedding_loss(dist, y, 2.0))
    ''') == ["(N,)", "(N,)", "()", None]
