"""Shapes, ranks and dtypes: the jaxtyping annotation language, enforced by `@shapecheck.check`.

No `from __future__ import annotations` here: some tests build annotations in local variables.
"""

from typing import Optional, Union

import random

import pytest
import torch
from jaxtyping import (BFloat16, Bool, Complex, Float, Float16, Float32, Float64, Inexact, Int, Int8, Integer, Num,
                       Real, Shaped, UInt8)
from torch import Tensor

import shapecheck


def t(*shape: int, dtype: torch.dtype = torch.float32) -> Tensor:
    return torch.zeros(shape, dtype=dtype)


def accepts(function, *args, **kwargs) -> bool:
    try:
        function(*args, **kwargs)
    except shapecheck.ShapeError:
        return False
    return True


@shapecheck.check
def matmul(x: Float[Tensor, "B T D"], w: Float[Tensor, "D E"]) -> Float[Tensor, "B T E"]:
    return x @ w


def test_named_dims_must_agree_across_arguments():
    assert matmul(t(2, 3, 4), t(4, 5)).shape == (2, 3, 5)
    with pytest.raises(shapecheck.ShapeError, match=r"w.shape\[0\] is D=6, but x.shape\[2\] bound D=4"):
        matmul(t(2, 3, 4), t(6, 5))


def test_rank_is_checked():
    with pytest.raises(shapecheck.ShapeError, match="x has 2 dimensions, but .* needs 3"):
        matmul(t(3, 4), t(4, 5))


def test_return_value_is_checked_against_argument_dims():
    @shapecheck.check
    def wrong(x: Float[Tensor, "B D"]) -> Float[Tensor, "D B"]:
        return x

    assert accepts(wrong, t(3, 3))
    with pytest.raises(shapecheck.ShapeError, match=r"return value does not match .*\n"
                                                    r"  return.shape\[0\] is D=2, but x.shape\[1\] bound D=3"):
        wrong(t(2, 3))


def test_fixed_sizes_and_named_fixed_sizes():
    @shapecheck.check
    def rgb(x: Float[Tensor, "B 3 H W"], y: Float[Tensor, "c=2"]) -> None:
        pass

    assert accepts(rgb, t(1, 3, 8, 8), t(2))
    with pytest.raises(shapecheck.ShapeError, match=r"x.shape\[1\] is 4, but the annotation fixes it to 3"):
        rgb(t(1, 4, 8, 8), t(2))
    assert not accepts(rgb, t(1, 3, 8, 8), t(3))


def test_anonymous_dim_matches_anything_but_counts_for_rank():
    @shapecheck.check
    def f(x: Float[Tensor, "_ D"], y: Float[Tensor, "_ D"]) -> None:
        pass

    assert accepts(f, t(2, 4), t(7, 4))
    assert not accepts(f, t(2, 4), t(7, 5))
    assert not accepts(f, t(4), t(7, 4))


def test_ellipsis_and_named_variadic_dims():
    @shapecheck.check
    def f(x: Float[Tensor, "*batch C"], y: Float[Tensor, "*batch"], z: Float[Tensor, "... C"]) -> None:
        pass

    assert accepts(f, t(2, 3, 4), t(2, 3), t(9, 9, 9, 4))
    assert accepts(f, t(4), t(), t(4))  # an empty *batch
    with pytest.raises(shapecheck.ShapeError, match=r"y.shape\[0:2\] is \*batch=\(2, 5\), but x.shape\[0:2\] "
                                                    r"bound \*batch=\(2, 3\)"):
        f(t(2, 3, 4), t(2, 5), t(4))
    with pytest.raises(shapecheck.ShapeError, match="needs at least 1"):
        f(t(), t(), t(4))
    assert not accepts(f, t(2, 3, 4), t(2, 3), t(5))


def test_dims_after_a_variadic_are_counted_from_the_end():
    @shapecheck.check
    def f(x: Float[Tensor, "N ... D"], w: Float[Tensor, "D N"]) -> None:
        pass

    assert accepts(f, t(2, 7, 7, 4), t(4, 2))
    assert accepts(f, t(2, 4), t(4, 2))
    with pytest.raises(shapecheck.ShapeError, match=r"w.shape\[0\] is D=5, but x.shape\[3\] bound D=4"):
        f(t(2, 7, 7, 4), t(5, 2))


def test_broadcastable_dims_accept_size_one():
    @shapecheck.check
    def f(x: Float[Tensor, "B #T"], y: Float[Tensor, "B T"], z: Float[Tensor, "#3"]) -> None:
        pass

    assert accepts(f, t(2, 1), t(2, 5), t(1))
    assert accepts(f, t(2, 5), t(2, 5), t(3))
    assert not accepts(f, t(2, 4), t(2, 5), t(3))
    assert not accepts(f, t(2, 5), t(2, 5), t(2))


def test_broadcastable_variadic_dims():
    @shapecheck.check
    def f(x: Float[Tensor, "*#batch"], y: Float[Tensor, "*#batch"]) -> None:
        pass

    assert accepts(f, t(2, 1, 4), t(3, 1))
    assert accepts(f, t(4), t(2, 3, 4))
    assert not accepts(f, t(2, 3), t(4))


def test_symbolic_return_dims():
    @shapecheck.check
    def double(x: Float[Tensor, "B T"], n: int) -> tuple[Float[Tensor, "B T*2"], Float[Tensor, "B+1 {n}"]]:
        return torch.cat([x, x], 1), t(x.shape[0] + 1, n)

    assert [out.shape for out in double(t(2, 3), 5)] == [(2, 6), (3, 5)]

    @shapecheck.check
    def bad(x: Float[Tensor, "B T"]) -> Float[Tensor, "B T*2"]:
        return x

    with pytest.raises(shapecheck.ShapeError, match=r"return.shape\[1\] is 3, but T\*2 = 6 \(with T=3\)"):
        bad(t(2, 3))


def test_symbolic_dim_with_builtins_and_unbound_names():
    @shapecheck.check
    def pooled(x: Float[Tensor, "B T"]) -> Float[Tensor, "B max(T//2,1)"]:
        return x[:, : max(x.shape[1] // 2, 1)]

    assert pooled(t(2, 7)).shape == (2, 3)
    assert pooled(t(2, 1)).shape == (2, 1)

    @shapecheck.check
    def unbound(x: Float[Tensor, "B"]) -> Float[Tensor, "K+1"]:
        return x

    with pytest.raises(shapecheck.ShapeError, match="K is not bound by any earlier argument"):
        unbound(t(3))


@pytest.mark.parametrize("family", [Float, Float16, Float32, Float64, BFloat16, Int, Int8, UInt8, Integer, Num,
                                    Real, Inexact, Complex, Bool, Shaped])
def test_every_dtype_family_means_what_it_means_to_jaxtyping(family):
    annotation = family[Tensor, "N"]

    @shapecheck.check
    def f(x: annotation) -> None:
        pass

    dtypes = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.uint8, torch.int16,
              torch.int32, torch.int64, torch.bool, torch.complex64, torch.complex128]
    for dtype in dtypes:
        value = t(3, dtype=dtype)
        assert accepts(f, value) == isinstance(value, annotation), dtype  # jaxtyping's own verdict


def test_unresolvable_annotation_warns_instead_of_passing_silently():
    exec_namespace = {}
    exec("from __future__ import annotations\n"
         "import shapecheck\n"
         "@shapecheck.check\n"
         "def f(x: NotDefinedAnywhere) -> None: pass\n", exec_namespace)
    with pytest.warns(UserWarning, match="annotation x: 'NotDefinedAnywhere' does not resolve"):
        exec_namespace["f"](1)


def test_dtype_error_names_the_dtype():
    with pytest.raises(shapecheck.ShapeError, match="w has dtype int64, but .* needs a Float dtype"):
        matmul(t(2, 3, 4), t(4, 5, dtype=torch.int64))


def test_shaped_accepts_any_dtype_and_bare_tensor_any_shape():
    @shapecheck.check
    def f(x: Shaped[Tensor, "N"], y: Tensor) -> None:
        pass

    assert accepts(f, t(3, dtype=torch.bool), t(1, 2, 3))
    with pytest.raises(shapecheck.ShapeError, match="y is int, not a Tensor"):
        f(t(3), 3)


def test_kwargs_defaults_keyword_only_and_positional_only():
    default = t(4)

    @shapecheck.check
    def f(x: Float[Tensor, "D"], /, w: Float[Tensor, "D"] = default, *, b: Float[Tensor, "D"] = default) -> None:
        pass

    assert accepts(f, t(4))
    assert accepts(f, t(4), w=t(4), b=t(4))
    assert not accepts(f, t(3))  # the default is checked against x too
    assert not accepts(f, t(4), b=t(3))
    assert not accepts(f, t(4), t(5))
    with pytest.raises(TypeError, match="positional"):
        f(x=t(4))  # the function's own binding rules still apply


def test_missing_argument_is_the_function_s_own_type_error():
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'w'") as error:
        matmul(t(2, 3, 4))
    assert not isinstance(error.value, shapecheck.CheckError)


def test_star_args_and_star_kwargs_annotate_each_element():
    @shapecheck.check
    def f(*xs: Float[Tensor, "N"], **named: Float[Tensor, "N"]) -> None:
        pass

    assert accepts(f, t(2), t(2), a=t(2))
    with pytest.raises(shapecheck.ShapeError, match=r"xs\[1\].shape\[0\] is N=3, but xs\[0\].shape\[0\] bound N=2"):
        f(t(2), t(3))
    with pytest.raises(shapecheck.ShapeError, match=r"named\['b'\].shape\[0\] is N=3"):
        f(t(2), a=t(2), b=t(3))


def test_optional_union_and_none_default():
    @shapecheck.check
    def f(x: Float[Tensor, "B T"], mask: Optional[Bool[Tensor, "B T"]] = None,
          bias: Float[Tensor, "T"] = None, scale: Union[Float[Tensor, "B"], float] = 1.0) -> None:
        pass

    assert accepts(f, t(2, 3))
    assert accepts(f, t(2, 3), t(2, 3, dtype=torch.bool), t(3), t(2))
    assert accepts(f, t(2, 3), scale=0.5)
    assert not accepts(f, t(2, 3), t(2, 4, dtype=torch.bool))
    assert not accepts(f, t(2, 3), bias=t(4))
    assert not accepts(f, t(2, 3), scale=t(3))


def test_union_of_tensor_annotations_binds_only_the_matching_member():
    @shapecheck.check
    def f(x: Float[Tensor, "N 2"] | Float[Tensor, "N 3 M"], y: Float[Tensor, "M"]) -> None:
        pass

    assert accepts(f, t(5, 3, 4), t(4))
    assert accepts(f, t(5, 2), t(7))  # M is unbound: the failed member did not bind anything
    assert not accepts(f, t(5, 3, 4), t(7))
    assert not accepts(f, t(5, 4), t(4))


def test_containers():
    @shapecheck.check
    def f(pair: tuple[Float[Tensor, "B D"], Int[Tensor, "B"]], layers: list[Float[Tensor, "D D"]],
          extra: dict[str, Float[Tensor, "B"]], rest: tuple[Float[Tensor, "D"], ...] = ()) -> None:
        pass

    good = ((t(2, 4), t(2, dtype=torch.int64)), [t(4, 4), t(4, 4)], {"a": t(2)})
    assert accepts(f, *good, rest=(t(4), t(4)))
    with pytest.raises(shapecheck.ShapeError, match=r"layers\[1\].shape\[0\] is D=3, but pair\[0\].shape\[1\] "
                                                    r"bound D=4"):
        f(good[0], [t(4, 4), t(3, 3)], good[2])
    with pytest.raises(shapecheck.ShapeError, match=r"extra\['a'\].shape\[0\] is B=3"):
        f(*good[:2], {"a": t(3)})
    with pytest.raises(shapecheck.ShapeError, match="pair is list, but the annotation needs a tuple of 2"):
        f(list(good[0]), *good[1:])
    assert not accepts(f, *good, rest=(t(4), t(5)))


def test_non_tensor_hints_are_not_checked_by_default():
    @shapecheck.check
    def f(x: Float[Tensor, "N"], n: int, name: str) -> Float[Tensor, "N"]:
        return x

    assert accepts(f, t(3), "not an int", 42)


def test_annotated_and_type_alias_hints():
    from typing import Annotated

    typing_extensions = pytest.importorskip("typing_extensions")
    Image = typing_extensions.TypeAliasType("Image", Float[Tensor, "B 3 H W"])

    @shapecheck.check
    def f(x: Image, y: Annotated[Float[Tensor, "B"], "metadata"]) -> None:
        pass

    assert accepts(f, t(2, 3, 4, 4), t(2))
    assert not accepts(f, t(2, 1, 4, 4), t(2))
    assert not accepts(f, t(2, 3, 4, 4), t(3))


def test_numpy_annotations_are_not_ours():
    np = pytest.importorskip("numpy")

    @shapecheck.check
    def f(x: Float[np.ndarray, "N"], y: Float[Tensor, "N"]) -> None:
        pass

    assert accepts(f, "anything", t(3))


def test_differential_against_jaxtyping_on_random_shapes():
    """Accept/reject must agree with jaxtyping+beartype on every combination below."""
    jaxtyping = pytest.importorskip("jaxtyping")
    beartype = pytest.importorskip("beartype").beartype

    def f(x: Float[Tensor, "B *rest #C"], y: Float[Tensor, "#B 3 _"], z: Float[Tensor, "... C"]) -> None:
        pass

    ours, theirs = shapecheck.check(f), jaxtyping.jaxtyped(typechecker=beartype)(f)
    rng = random.Random(0)
    agreed = {True: 0, False: 0}
    for _ in range(500):
        # Ranks around the ones the annotations need and sizes of 1 or 3 make both verdicts common.
        shapes = [tuple(rng.choice((1, 3)) for _ in range(rng.choice(ranks))) for ranks in ((2, 3), (3, 3, 2), (1, 2))]
        args = [t(*shape) for shape in shapes]
        try:
            theirs(*args)
            expected = True
        except (TypeError, jaxtyping.TypeCheckError):
            expected = False
        assert accepts(ours, *args) == expected, shapes
        agreed[expected] += 1
    assert min(agreed.values()) > 20  # both verdicts were exercised
