"""jaxtyping annotations of values a caller may leave out: `mask: Bool[Tensor, "b 1 1 s"] | None = None`,
`-> Optional[Bool[Tensor, "B T"]]`, `Union[..., None]`. What they state when the value is a tensor is checked as the
plain annotation is; a None passed or returned is no tensor and is not checked. Each INVALID program fails its
annotations under jaxtyping and beartype (and the attention one raises in torch); its VALID twin passes them."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint, lint_project
from tests.shapes.probe import probe

# an attention helper of a package module, its padding mask optional; a model of another module hands it the
# (batch, source) padding mask as the dataset gives it, not broadcast over heads and queries
OPTIONAL_MASK = {
    ".git/HEAD": "",
    "ops/__init__.py": "",
    "ops/attention.py": '''
    import torch
    from jaxtyping import Bool, Float
    from torch import Tensor


    def scaled_dot_product(q: Float[Tensor, "b h t d"], k: Float[Tensor, "b h s d"], v: Float[Tensor, "b h s d"],
                           mask: Bool[Tensor, "b 1 1 s"] | None = None) -> Float[Tensor, "b h t d"]:
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v
    ''',
    "model.py": '''
    import torch
    import torch.nn as nn

    from ops.attention import scaled_dot_product


    class SelfAttention(nn.Module):
        def __init__(self, dim=32, heads=4):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(dim, 3 * dim)
            self.out = nn.Linear(dim, dim)

        def forward(self, x, keep=None):
            b, t, _ = x.shape
            q, k, v = self.qkv(x).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
            y = scaled_dot_product(q, k, v, keep)
            return self.out(y.transpose(1, 2).reshape(b, t, -1))


    if __name__ == "__main__":
        layer = SelfAttention()
        x = torch.randn(2, 10, 32)
        lengths = torch.tensor([10, 6])
        keep = torch.arange(10)[None, :] < lengths[:, None]
        print(layer(x).shape)
        print(layer(x, keep).shape)
    ''',
}

# a padding-mask helper annotated to return an optional (batch, time) mask, called on time-major token ids
OPTIONAL_RETURN = '''
import torch
from typing import Optional
from jaxtyping import Bool, Int
from torch import Tensor


def padding_mask(tokens: Optional[Int[Tensor, "T B"]], pad_id: int = 0) -> Optional[Bool[Tensor, "B T"]]:
    if tokens is None:
        return None
    return tokens == pad_id


def key_padding_mask(lengths: Int[Tensor, "B"], tokens: Int[Tensor, "T B"]) -> Union[Bool[Tensor, "B T"], None]:
    steps = torch.arange(tokens.size(0))
    return steps[:, None] >= lengths[None, :]
'''


def _replaced(files: dict[str, str], name: str, old: str, new: str) -> dict[str, str]:
    assert old in files[name]
    return {**files, name: files[name].replace(old, new)}


def test_an_optional_mask_parameter(tmp_path: Path) -> None:
    # reported where it fails, in the file that holds the call (the model's own call of it brings the mask)
    row = [r for r, text in enumerate(OPTIONAL_MASK["model.py"].splitlines(), 1)
           if text.strip() == "y = scaled_dot_product(q, k, v, keep)"][0]
    assert lint_project(tmp_path, OPTIONAL_MASK, "SC108") == [("model.py", row)]
    fixed = _replaced(OPTIONAL_MASK, "model.py", "y = scaled_dot_product(q, k, v, keep)",
                      "y = scaled_dot_product(q, k, v, keep[:, None, None, :] if keep is not None else None)")
    assert lint_project(tmp_path / "fixed", fixed, "SC108") == []


def test_an_optional_return() -> None:
    source = OPTIONAL_RETURN.replace("from typing import Optional", "from typing import Optional, Union")
    rows = [finding.location.row for finding in lint(source, "SC108").findings]
    assert rows == [11, 16]
    fixed = source.replace("return tokens == pad_id", "return (tokens == pad_id).t()").replace(
        "steps[:, None] >= lengths[None, :]", "steps[None, :] >= lengths[:, None]")
    assert lint(fixed, "SC108").findings == []


def test_what_an_optional_annotation_states() -> None:
    assert probe('''
        from typing import Optional, Union
        import typing
        from jaxtyping import Bool, Float
        from torch import Tensor

        def f(a: Float[Tensor, "B T"] | None, b: None | Bool[Tensor, "B"], c: Optional[Float[Tensor, "B 3"]],
              d: typing.Union[Float[Tensor, "2 B"], None], e: Union[Float[Tensor, "B"], Bool[Tensor, "B"]]):
            probe(a)
            probe(b)
            probe(c)
            probe(d)
            probe(e)
    ''') == ["(B, T)", "(B,)", "(B, 3)", "(2, B)", "(...)"]
