"""SC209 step-between-backward: an optimizer step between two backward passes through one retained graph."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Binding, Rule
from shapecheck.engine.syntax import keyword_arg
from shapecheck.loops.training_loop import Event, called_module, is_step_call, names_in, related, training_loop
from shapecheck.rules._training_loop import in_test, is_test_file


class StepBetweenBackward(Rule):
    code = "SC209"
    name = "step-between-backward"
    message = "an optimizer step updates in place weights that a later `backward()` through the same graph needs"
    triggers = ("retain_graph",)
    docs = """
        ## What it does
        Finds, in one iteration (the same loop body, or one function without a loop), a
        `loss_a.backward(retain_graph=True)`, then an optimizer `step()`, then `loss_b.backward()` where
        `loss_b` was computed before that step. `retain_graph=True` says both losses share one graph, typically a
        GAN computing the discriminator's and the generator's losses from one forward pass.

        Not reported: `loss_b` computed again after the step (a fresh forward pass), the steps placed after the
        last backward, and tests.

        ## Why is this bad?
        `optimizer.step()` updates the parameters in place. The graph `loss_b` was built on saved those
        parameters for its backward pass, so `loss_b.backward()` raises "RuntimeError: one of the variables needed
        for gradient computation has been modified by an inplace operation" (or, on old releases, silently used
        the new weights). The primer: in-place ops are "risky inside autograd graphs because they can break the
        saved values needed for backward", and "Inplace ops break autograd".

        ## Example
        ```python
        d_loss = criterion(D(real), ones) + criterion(D(fake), zeros)
        g_loss = criterion(D(fake), ones)
        optimizer_D.zero_grad()
        d_loss.backward(retain_graph=True)
        optimizer_D.step()
        optimizer_G.zero_grad()
        g_loss.backward()  # D's weights were changed in place by optimizer_D.step()
        optimizer_G.step()
        ```

        ## Use instead
        ```python
        optimizer_D.zero_grad()
        d_loss = criterion(D(real), ones) + criterion(D(fake.detach()), zeros)
        d_loss.backward()
        optimizer_D.step()
        optimizer_G.zero_grad()
        g_loss = criterion(D(fake), ones)  # a fresh forward through the updated D
        g_loss.backward()
        optimizer_G.step()
        ```

        This rule has no fix: whether to recompute the loss or to step both optimizers after both backward passes
        is the author's call.
    """
    VALID = [
        # pytorch/examples dcgan: G's loss is computed after D's step.
        """
        import torch
        for i, data in enumerate(dataloader):
            netD.zero_grad()
            errD_real = criterion(netD(real), label)
            errD_real.backward()
            errD_fake = criterion(netD(fake.detach()), label)
            errD_fake.backward()
            optimizerD.step()
            netG.zero_grad()
            errG = criterion(netD(fake), label)
            errG.backward()
            optimizerG.step()
        """,
        # Both backward passes first, then both steps.
        """
        import torch
        for x in loader:
            fake = G(z)
            d_loss = criterion(D(fake), zeros)
            g_loss = criterion(D(fake), ones)
            optimizer_D.zero_grad()
            d_loss.backward(retain_graph=True)
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_D.step()
            optimizer_G.step()
        """,
        # Ground-truth tensors shared by both losses carry no graph.
        """
        import torch
        optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
        for imgs, _ in dataloader:
            valid = torch.ones(imgs.size(0), 1)
            d_loss = adversarial_loss(discriminator(imgs), valid)
            d_loss.backward(retain_graph=True)
            optimizer_D.step()
            g_loss = adversarial_loss(discriminator(generator(z)), valid)
            g_loss.backward()
            optimizer_G.step()
        """,
        # Truncated BPTT: the retained graph's loss is recomputed after the step.
        """
        import torch
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward(retain_graph=True)
            optimizer.step()
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
        """,
        # PyTorch-GAN bicyclegan: the second loss runs the stepped encoder afresh on the generator's output.
        """
        import torch
        optimizer_E = torch.optim.Adam(encoder.parameters(), lr=2e-4)
        for i, batch in enumerate(dataloader):
            optimizer_E.zero_grad()
            optimizer_G.zero_grad()
            mu, logvar = encoder(real_B)
            fake_B = generator(real_A, reparameterization(mu, logvar))
            _fake_B = generator(real_A, sampled_z)
            loss_GE = D_VAE.compute_loss(fake_B, valid) + D_LR.compute_loss(_fake_B, valid) + kl(mu, logvar)
            loss_GE.backward(retain_graph=True)
            optimizer_E.step()
            _mu, _ = encoder(_fake_B)
            loss_latent = lambda_latent * mae_loss(_mu, sampled_z)
            loss_latent.backward()
            optimizer_G.step()
        """,
    ]
    INVALID = [
        """
        import torch
        for i, (imgs, _) in enumerate(dataloader):
            fake = generator(z)
            d_loss = adversarial_loss(discriminator(imgs), valid) + adversarial_loss(discriminator(fake), fake_label)
            g_loss = adversarial_loss(discriminator(fake), valid)
            optimizer_D.zero_grad()
            d_loss.backward(retain_graph=True)
            optimizer_D.step()
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_G.step()
        """,
        """
        import torch
        def train_step(model, x, y, optimizer):
            out = model(x)
            loss_a = criterion(out, y)
            loss_b = out.pow(2).mean()
            loss_a.backward(retain_graph=True)
            optimizer.step()
            loss_b.backward()
        """,
        # PyTorch-GAN softmax_gan: the generator's loss is written after D's step, from D's outputs before it.
        """
        import torch
        optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
        for epoch in range(n_epochs):
            for i, (imgs, _) in enumerate(dataloader):
                optimizer_G.zero_grad()
                optimizer_D.zero_grad()
                gen_imgs = generator(z)
                d_real = discriminator(imgs)
                d_fake = discriminator(gen_imgs)
                Z = torch.sum(torch.exp(-d_real)) + torch.sum(torch.exp(-d_fake))
                d_loss = d_target * torch.sum(d_real) + torch.log(Z)
                d_loss.backward(retain_graph=True)
                optimizer_D.step()
                g_loss = g_target * (torch.sum(d_real) + torch.sum(d_fake)) + torch.log(Z)
                g_loss.backward()
                optimizer_G.step()
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        training = training_loop(ctx)
        event = training.event_at(node)
        if event is None or event.kind != "backward" or in_test(ctx) or is_test_file(ctx):
            return
        loss = _loss_name(node)
        binding = ctx.binding(loss) if loss is not None else None
        if binding is None:
            return
        retained = step = None
        for earlier in training.in_function(event.function)[:-1]:
            if earlier.loops != event.loops:
                continue
            if earlier.kind == "backward" and _retains(earlier.node) and _loss_name(earlier.node) != loss:
                retained, step = earlier, None
            elif earlier.kind == "step" and retained is not None and is_step_call(earlier.node):
                step = step or earlier
        if step is None:
            return
        if binding.seq <= step.seq:  # the loss itself was computed before the step
            what = f"`{loss}` was computed before `{ctx.code(step.node)}` updated the weights in place"
        else:
            shared = self._shared_before(binding, _loss_name(retained.node), step)
            if shared is None:
                return
            what = (f"`{loss}` is computed from `{shared}`, which `{_loss_name(retained.node)}` shares and which was "
                    f"computed before `{ctx.code(step.node)}` updated the weights in place")
        self.report(node, f"{what}, and `{ctx.code(retained.node)}` kept its graph: this backward pass needs the "
                          "old weights and raises \"modified by an inplace operation\"; compute the loss again after "
                          "the step, or step after both backward passes")

    def _shared_before(self, binding: Binding, retained: str | None, step: Event) -> str | None:
        """An output of a module the step updates that both losses are computed from (`d_real` in
        `d_loss = f(d_real)` and `g_loss = g(d_real)`, `d_real = discriminator(x)` before `optimizer_D.step()`):
        the retained graph runs through the old weights."""
        other = self.ctx.binding(retained) if retained is not None else None
        if binding.value is None or other is None or other.value is None or not step.owners:
            return None
        mine = names_in(binding.value)
        for name in names_in(other.value):
            bound = self.ctx.binding(name) if name in mine else None
            if bound is None or bound.kind != "assign" or bound.seq > step.seq or type(bound.value) is not cst.Call:
                continue
            module = called_module(bound.value)
            if module is not None and any(related(module, owner) for owner in step.owners):
                return name
        return None


def _retains(call: cst.CSTNode) -> bool:
    arg = keyword_arg(call, "retain_graph")  # type: ignore[arg-type]
    return arg is not None and type(arg.value) is cst.Name and arg.value.value == "True"


def _loss_name(call: cst.CSTNode) -> str | None:
    """`loss` for `loss.backward()` and `scaler.scale(loss).backward()`."""
    receiver = call.func.value  # type: ignore[attr-defined]
    if type(receiver) is cst.Call and receiver.args:
        receiver = receiver.args[0].value
    return receiver.value if type(receiver) is cst.Name else None
