"""MultiheadAttention and the Transformer family: outputs, the batch and sequence dims batch_first picks, and the
masks each accepts (key padding (batch, source), attention (target, source) or (batch * heads, target, source))."""

from __future__ import annotations

from tests.shapes.probe import probe

HEADER = '''
import torch
import torch.nn as nn
'''


def seen(body: str) -> list:
    return probe(HEADER + body)


def test_multihead_attention_masks_follow_batch_first() -> None:
    assert seen('''
tokens = torch.randn(16, 40, 64)
seq_first = nn.MultiheadAttention(64, 8)
batch_first = nn.MultiheadAttention(64, 8, batch_first=True)
pad = torch.zeros(16, 40, dtype=torch.bool)
probe_conflict(batch_first(tokens, tokens, tokens, key_padding_mask=pad))
probe_conflict(seq_first(tokens, tokens, tokens, key_padding_mask=pad))
probe_conflict(batch_first(tokens, tokens, tokens, attn_mask=torch.ones(40, 40, dtype=torch.bool)))
probe_conflict(batch_first(tokens, tokens, tokens, attn_mask=torch.ones(128, 40, 40, dtype=torch.bool)))
probe_conflict(batch_first(tokens, tokens, tokens, attn_mask=torch.ones(16, 40, 40, dtype=torch.bool)))
probe(batch_first(tokens, tokens, tokens)[0])
''') == [
        None,
        "`seq_first(tokens, tokens, tokens, key_padding_mask=pad)`: tokens is (16, 40, 64): key_padding_mask is "
        "(16, 40), but `seq_first` = nn.MultiheadAttention(64, 8) expects key_padding_mask of (40, 16): "
        "(batch, source length)",
        None, None,
        "`batch_first(tokens, tokens, tokens, attn_mask=torch.ones(16, 40, 40, dtype=torch.bool))`: tokens is "
        "(16, 40, 64): attn_mask is (16, 40, 40), but `batch_first` = nn.MultiheadAttention(64, 8, batch_first=True) "
        "expects attn_mask of (40, 40) or (128, 40, 40): (target length, source length) or (batch * num_heads, "
        "target length, source length)",
        "(16, 40, 64)"]


def test_a_query_and_keys_of_different_batch_sizes() -> None:
    # a learned query (an embedding's weight, batch 1) against a batch of features: attention doesn't broadcast
    assert seen('''
features = torch.randn(4, 196, 640)
attn = nn.MultiheadAttention(640, 1, batch_first=True)
queries = nn.Embedding(1, 640)
probe_conflict(attn(queries.weight.unsqueeze(0), features, features))
probe_conflict(attn(queries.weight.unsqueeze(0).expand(4, -1, -1), features, features))
seq_first = nn.MultiheadAttention(640, 1)
probe_conflict(seq_first(torch.randn(1, 1, 640), features, features))
''') == [
        "`attn(queries.weight.unsqueeze(0), features, features)`: the input is (1, 1, 640): the key is a batch of 4, "
        "but `attn` = nn.MultiheadAttention(640, 1, batch_first=True) expects the query's batch size, 1",
        None,
        "`seq_first(torch.randn(1, 1, 640), features, features)`: the input is (1, 1, 640): the key is a batch of "
        "196, but `seq_first` = nn.MultiheadAttention(640, 1) expects the query's batch size, 1"]


def test_transformer_layers_stacks_and_the_causal_mask() -> None:
    assert seen('''
def lm(tokens, width: int):
    block = nn.TransformerEncoderLayer(d_model=96, nhead=4, batch_first=True)
    stack = nn.TransformerEncoder(block, num_layers=3)
    x = torch.randn(8, 50, 96)
    causal = nn.Transformer.generate_square_subsequent_mask(50)
    probe(causal)
    probe(stack(x, mask=causal))
    probe_conflict(stack(x, mask=nn.Transformer.generate_square_subsequent_mask(64)))
    probe_conflict(stack(torch.randn(8, 50, 32)))
    probe(stack(x, src_key_padding_mask=torch.zeros(8, 50, dtype=torch.bool)))
    probe(stack(tokens))
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(96, 4), 2)
    probe(decoder(torch.randn(10, 8, 96), torch.randn(50, 8, 96)))
    probe_conflict(decoder(torch.randn(10, 8, 96), torch.randn(50, 8, 96), memory_mask=torch.zeros(10, 10)))
    model = nn.Transformer(d_model=96, nhead=4)
    probe(model(torch.randn(50, 8, 96), torch.randn(10, 8, 96)))
    probe_conflict(model(torch.randn(50, 8, 96), torch.randn(10, 4, 96)))
''') == [
        "(50, 50)", "(8, 50, 96)",
        "`stack(x, mask=nn.Transformer.generate_square_subsequent_mask(64))`: x is (8, 50, 96): mask is (64, 64), but "
        "`stack` = nn.TransformerEncoder(block, num_layers=3) expects mask of (50, 50) or (32, 50, 50): (target "
        "length, source length) or (batch * num_heads, target length, source length)",
        "`stack(torch.randn(8, 50, 32))`: the input is (8, 50, 32): 32 features (last dim of src), but `stack` = "
        "nn.TransformerEncoder(block, num_layers=3) expects 96",
        None, "(...)", "(10, 8, 96)",
        "`decoder(torch.randn(10, 8, 96), torch.randn(50, 8, 96), memory_mask=torch.zeros(10, 10))`: the input is "
        "(10, 8, 96): memory_mask is (10, 10), but `decoder` = nn.TransformerDecoder(nn.TransformerDecoderLayer(96, "
        "4), 2) expects memory_mask of (10, 50) or (32, 10, 50): (target length, source length) or (batch * "
        "num_heads, target length, source length)",
        "(10, 8, 96)",
        "`model(torch.randn(50, 8, 96), torch.randn(10, 4, 96))`: the input is (50, 8, 96): a batch of 4 in tgt, but "
        "`model` = nn.Transformer(d_model=96, nhead=4) expects src's batch, 8"]


def test_pairwise_distances_and_float_attributes_against_tensors() -> None:
    assert seen('''
import math
class Neighbours(nn.Module):
    def __init__(self, radius=2.5):
        super().__init__()
        self.radius = radius
    def forward(self, points):
        return torch.cdist(points, points) < self.radius
probe(Neighbours()(torch.randn(2, 7, 3)))
probe(torch.cdist(torch.randn(5, 3), torch.randn(9, 3)))
probe(torch.sin(2 * math.pi * torch.randn(4, 10)) * torch.pi)
''') == ["(2, 7, 7)", "(5, 9)", "(4, 10)"]


def test_scaled_dot_product_attention_masks_broadcast_to_the_scores() -> None:
    """The scores are q's dims with the key's length last: a (T, S), (B, 1, 1, S) or (B, 1, T, S) mask fits, a
    (T, T) mask against S keys or a (B, T, S) mask against H heads raises (checked in torch 2.13)."""
    assert seen('''
import torch.nn.functional as F
B, H, T, S = 2, 4, 16, 20
q, k, v = torch.randn(B, H, T, 32), torch.randn(B, H, S, 32), torch.randn(B, H, S, 32)
probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, S, dtype=torch.bool)))
probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(B, 1, 1, S, dtype=torch.bool)))
probe_conflict(F.scaled_dot_product_attention(q, k, v, torch.ones(B, 1, T, S, dtype=torch.bool)))
probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, T, dtype=torch.bool)))
probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(B, T, S, dtype=torch.bool)))
''') == [None, None, None,
         "`F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, T, dtype=torch.bool))`: attn_mask "
         "torch.ones(T, T, dtype=torch.bool) is (16, 16), but the scores of q and k are (2, 4, 16, 20): 16 and 20 "
         "don't broadcast",
         "`F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(B, T, S, dtype=torch.bool))`: attn_mask "
         "torch.ones(B, T, S, dtype=torch.bool) is (2, 16, 20), but the scores of q and k are (2, 4, 16, 20): 2 and 4 "
         "don't broadcast"]


def test_a_causal_mask_asked_of_the_transformer_instance_is_the_class_functions() -> None:
    """`model.generate_square_subsequent_mask(n)` is the static method of `nn.Transformer`: the same (n, n) mask,
    so one built for the source length is caught at the decoder."""
    assert seen('''
def translate(width: int):
    model = nn.Transformer(64, 4, 2, 2, dim_feedforward=128, batch_first=True)
    src, tgt = torch.randn(4, 15, 64), torch.randn(4, 10, 64)
    probe(model.generate_square_subsequent_mask(tgt.size(1)))
    probe(model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(tgt.size(1))))
    probe_conflict(model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(src.size(1))))
    probe(nn.Linear(3, 3).generate_square_subsequent_mask(width))
''') == [
        "(10, 10)", "(4, 10, 64)",
        "`model(src, tgt, tgt_mask=model.generate_square_subsequent_mask(src.size(1)))`: src is (4, 15, 64): "
        "tgt_mask is (15, 15), but `model` = nn.Transformer(64, 4, 2, 2, dim_feedforward=128, batch_first=True) "
        "expects tgt_mask of (10, 10) or (16, 10, 10): (target length, source length) or (batch * num_heads, target "
        "length, source length)",
        None]


def test_multihead_attention_weights() -> None:
    """The weights `MultiheadAttention` hands back (checked in torch 2.13, train and eval, kdim/vdim too): (N, L, S)
    averaged over the heads, (N, heads, L, S) with `average_attn_weights=False`, without N unbatched; None when no
    weights are asked for; unknown when the code doesn't state whether they are."""
    assert seen('''
def explain(flag: bool):
    attn = nn.MultiheadAttention(32, 4, batch_first=True, kdim=16, vdim=8)
    seq_first = nn.MultiheadAttention(32, 4)
    q, kv = torch.randn(3, 5, 32), torch.randn(3, 7, 16)
    probe(attn(q, kv, torch.randn(3, 7, 8))[1])
    probe(attn(q, kv, torch.randn(3, 7, 8), average_attn_weights=False)[1])
    probe(seq_first(torch.randn(5, 3, 32), torch.randn(7, 3, 32), torch.randn(7, 3, 32))[1])
    probe(seq_first(torch.randn(5, 32), torch.randn(7, 32), torch.randn(7, 32), average_attn_weights=False)[1])
    probe(attn(q, kv, torch.randn(3, 7, 8), need_weights=False)[1])
    probe(attn(q, kv, torch.randn(3, 7, 8), need_weights=flag)[1])
    probe(attn(q, kv, torch.randn(3, 7, 8), average_attn_weights=flag)[1])
''') == ["(3, 5, 7)", "(3, 4, 5, 7)", "(3, 5, 7)", "(4, 5, 7)", None, None, None]


def test_an_attention_mask_given_with_is_causal_is_still_checked() -> None:
    """With `is_causal=True` and no weights asked for, training drops the `attn_mask`, but the eval fast path raises
    on one of another size than the sequence's, and the docs ask it to be the causal mask (checked in torch 2.13):
    the mask is checked as any other, the flags read as the forward's switches."""
    assert seen('''
mha = nn.MultiheadAttention(32, 4, batch_first=True)
x = torch.randn(4, 10, 32)
encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, batch_first=True), 2)
causal = torch.ones(16, 16, dtype=torch.bool).triu(1)
probe_conflict(mha(x, x, x, attn_mask=causal, is_causal=True, need_weights=False))
probe_conflict(encoder(x, mask=nn.Transformer.generate_square_subsequent_mask(16), is_causal=True))
probe(mha(x, x, x, attn_mask=torch.ones(10, 10, dtype=torch.bool).triu(1), is_causal=True, need_weights=False)[1])
''') == [
        "`mha(x, x, x, attn_mask=causal, is_causal=True, need_weights=False)`: x is (4, 10, 32): attn_mask is (16, 16), but `mha` = nn.MultiheadAttention(32, 4, "
        "batch_first=True) expects attn_mask of (10, 10) or (16, 10, 10): (target length, source length) or (batch "
        "* num_heads, target length, source length)",
        "`encoder(x, mask=nn.Transformer.generate_square_subsequent_mask(16), is_causal=True)`: x is (4, 10, 32): "
        "mask is (16, 16), but `encoder` = nn.TransformerEncoder(nn.TransformerEncoderLayer(32, 4, "
        "batch_first=True), 2) expects mask of (10, 10) or (16, 10, 10): (target length, source length) or (batch * "
        "num_heads, target length, source length)",
        None]


def test_a_decoder_pairs_the_target_with_memory_of_its_batch() -> None:
    """The decoder's cross-attention takes tgt and memory of one batch size: a batch-first memory given to a
    sequence-first decoder raises (checked in torch 2.13, layer and stack, either batch_first)."""
    assert seen('''
layer = nn.TransformerDecoderLayer(64, 4, dim_feedforward=128)
stack = nn.TransformerDecoder(nn.TransformerDecoderLayer(64, 4, batch_first=True), 2)
tgt = torch.randn(15, 8, 64)
probe_conflict(layer(tgt, torch.randn(20, 8, 64)))
probe_conflict(layer(tgt, torch.randn(8, 20, 64)))
probe_conflict(stack(torch.randn(8, 15, 64), torch.randn(20, 8, 64)))
probe_conflict(layer(torch.randn(15, 64), torch.randn(20, 64)))
''') == [
        None,
        "`layer(tgt, torch.randn(8, 20, 64))`: tgt is (15, 8, 64): a batch of 20 in memory, but `layer` = "
        "nn.TransformerDecoderLayer(64, 4, dim_feedforward=128) expects tgt's batch, 8",
        "`stack(torch.randn(8, 15, 64), torch.randn(20, 8, 64))`: the input is (8, 15, 64): a batch of 20 in memory, "
        "but `stack` = nn.TransformerDecoder(nn.TransformerDecoderLayer(64, 4, batch_first=True), 2) expects tgt's "
        "batch, 8",
        None]


def test_a_padding_mask_of_the_batch_and_length_in_the_other_order() -> None:
    """Batch-first tokens of sizes the code does not state make a (batch, length) padding mask; a layer that is not
    batch first reads the embedded tokens as (length, batch, E) and asks for the mask in the other order (checked in
    torch 2.13: it raises unless the batch is as long as the sequence, and then masks the wrong entries). The tokens
    put sequence first, a batch-first layer and a square mask of one size stay clean."""
    assert seen('''
def encode(batch: int, length: int, n: int):
    tokens = torch.randint(0, 100, (batch, length))
    x = nn.Embedding(100, 32)(tokens)
    seq_first = nn.MultiheadAttention(32, 4)
    probe_conflict(seq_first(x, x, x, key_padding_mask=tokens == 0))
    probe_conflict(seq_first(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1), key_padding_mask=tokens == 0))
    probe_conflict(nn.MultiheadAttention(32, 4, batch_first=True)(x, x, x, key_padding_mask=tokens == 0))
    square = torch.randn(n, n, 32)
    probe_conflict(seq_first(square, square, square, key_padding_mask=torch.zeros(n, n, dtype=torch.bool)))
''') == [
        "`seq_first(x, x, x, key_padding_mask=tokens == 0)`: x is (batch, length, 32): key_padding_mask is (batch, "
        "length), but `seq_first` = nn.MultiheadAttention(32, 4) expects key_padding_mask of (length, batch): (batch, "
        "source length)",
        None, None, None]


def test_a_causal_mask_sized_by_the_batch() -> None:
    """A causal mask built for `x.size(0)` of batch-first tokens (the batch, where the sequence length is asked):
    wrong whatever the sizes (checked in torch 2.13: "The shape of the 2D attn_mask is torch.Size([16, 16]), but
    should be (32, 32)"); built for `x.size(1)`, or for `x.size(0)` of a sequence-first layer, it is the length."""
    assert seen('''
def causal(size: int):
    return torch.triu(torch.full((size, size), float("-inf")), diagonal=1)
def lm(batch: int, length: int):
    x = torch.randn(batch, length, 64)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, batch_first=True), 2)
    probe_conflict(encoder(x, mask=causal(x.size(0))))
    probe_conflict(encoder(x, mask=causal(x.size(1))))
    seq_first = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4), 2)
    probe_conflict(seq_first(x, mask=causal(x.size(0))))
''') == [
        "`encoder(x, mask=causal(x.size(0)))`: x is (batch, length, 64): mask is (batch, batch), but `encoder` = "
        "nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, batch_first=True), 2) expects mask of (length, "
        "length) or (4 * batch, length, length): (target length, source length) or (batch * num_heads, target length, "
        "source length)",
        None, None]


def test_a_padding_mask_given_to_sdpa_as_it_is_puts_the_batch_against_the_length() -> None:
    """A (batch, length) padding mask given to `F.scaled_dot_product_attention` as it is lines its batch up with
    the query's length in the (batch, heads, length, length) scores (checked in torch 2.13: "The size of tensor a
    (16) must match the size of tensor b (8) at non-singleton dimension 2"), whatever the sizes; the mask made
    (batch, 1, 1, length), a (length, length) one and a batch as long as the sequence stay clean."""
    assert seen('''
import torch.nn.functional as F
def attend(batch: int, length: int, n: int):
    q = k = v = torch.randn(batch, 4, length, 16)
    pad = torch.ones(batch, length, dtype=torch.bool)
    probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=pad))
    probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=pad[:, None, None, :]))
    probe_conflict(F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(length, length, dtype=torch.bool)))
    square = torch.randn(n, 4, n, 16)
    probe_conflict(F.scaled_dot_product_attention(square, square, square, attn_mask=torch.ones(n, n) > 0))
''') == [
        "`F.scaled_dot_product_attention(q, k, v, attn_mask=pad)`: attn_mask pad is (batch, length), but the scores "
        "of q and k are (batch, 4, length, length): the mask's batch dim (batch) lines up with their length "
        "(length); a (batch, length) mask wants `mask[:, None, None, :]`",
        None, None, None]
