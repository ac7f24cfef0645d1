"""Checked code computes exactly what unchecked code computes: outputs, gradients, a few optimiser steps."""

from __future__ import annotations

import copy

import torch
from jaxtyping import Float, Int
from torch import Tensor, nn

import shapecheck


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 11, width: int = 8) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.mix = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, tokens: Int[Tensor, "B T"]) -> Float[Tensor, "B T V"]:
        hidden = self.norm(self.embed(tokens) + torch.tanh(self.mix(self.embed(tokens))))
        return self.head(hidden)


CheckedLM = shapecheck.check(type("CheckedLM", (TinyLM,), {"forward": TinyLM.forward}))


@shapecheck.check
def loss_fn(logits: Float[Tensor, "B T V"], targets: Int[Tensor, "B T"]) -> Float[Tensor, ""]:
    return nn.functional.cross_entropy(logits.flatten(0, 1), targets.flatten())


def test_outputs_and_gradients_are_identical():
    torch.manual_seed(0)
    plain = TinyLM()
    checked = CheckedLM()
    checked.load_state_dict(plain.state_dict())
    tokens, targets = torch.randint(0, 11, (3, 5)), torch.randint(0, 11, (3, 5))

    plain_loss = loss_fn.__wrapped__(plain(tokens), targets)
    checked_loss = loss_fn(checked(tokens), targets)
    plain_loss.backward()
    checked_loss.backward()
    assert torch.equal(plain_loss, checked_loss)
    for (name, p_plain), p_checked in zip(plain.named_parameters(), checked.parameters()):
        assert torch.equal(p_plain.grad, p_checked.grad), name


def test_a_training_loop_ends_in_the_same_weights():
    torch.manual_seed(0)
    models = [TinyLM(), CheckedLM()]
    models[1].load_state_dict(copy.deepcopy(models[0].state_dict()))
    data = [(torch.randint(0, 11, (4, 6)), torch.randint(0, 11, (4, 6))) for _ in range(5)]
    for model, loss in zip(models, [loss_fn.__wrapped__, loss_fn]):
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
        for tokens, targets in data:
            optimizer.zero_grad()
            loss(model(tokens), targets).backward()
            optimizer.step()
    for p_plain, p_checked in zip(models[0].parameters(), models[1].parameters()):
        assert torch.equal(p_plain, p_checked)


def test_checked_output_is_the_very_tensor_the_function_returned():
    keep = {}

    @shapecheck.check
    def f(x: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
        keep["out"] = x * 2
        return keep["out"]

    x = torch.ones(3, requires_grad=True)
    out = f(x)
    assert out is keep["out"]
    out.sum().backward()
    assert torch.equal(x.grad, torch.full((3,), 2.0))
