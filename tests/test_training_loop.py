"""The engine's training-loop analysis (`training_loop(ctx)`): what it records and what it answers."""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst

from shapecheck.engine.context import Context
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT
from shapecheck.engine.walker import walk
from shapecheck.loops.training_loop import (
    Event, may_switch_mode, names_in, runs_without_grad, switches_mode, training_loop,
)
from shapecheck.engine.bindings import traverse


def analyse(source: str) -> Context:
    ctx = Context(cst.parse_module(textwrap.dedent(source)), "train.py")
    traverse(ctx, [training_loop(ctx)])
    return ctx


def kinds(events: list[Event]) -> list[tuple[str, str | None]]:
    return [(event.kind, event.subject) for event in events]


def test_events_keep_source_order_objects_and_owners() -> None:
    ctx = analyse("""
        import torch
        opt_g = torch.optim.Adam(G.parameters(), lr=2e-4)
        sched = torch.optim.lr_scheduler.StepLR(opt_g, 10)
        for x in loader:
            opt_d.zero_grad()
            G.zero_grad()
            loss = D(G(z)).mean()
            scaler.scale(loss).backward()
            scaler.unscale_(opt_g)
            torch.nn.utils.clip_grad_norm_(G.parameters(), 1.0)
            scaler.step(opt_g)
            sched.step()
            p.grad.fill_(0)
    """)
    events = training_loop(ctx).events
    assert kinds(events) == [("reset", "opt_d"), ("reset", "G"), ("backward", None), ("unscale", None),
                             ("clip", None), ("step", "opt_g"), ("schedule", "sched"), ("reset", None)]
    assert events[0].optimizer and not events[1].optimizer
    assert events[2].scaled
    assert events[5].owners == frozenset({"G"})
    assert [event.order for event in events] == sorted(event.order for event in events)


def test_an_optimizer_s_owners_include_the_attributes_a_constructor_stores_them_in_by_tuple() -> None:
    ctx = analyse("""
        import torch
        class DDPG:
            def __init__(self, actor, critic):
                self.actor, self.critic = actor, critic
                self.critic_opt = torch.optim.Adam(critic.parameters())
            def update(self, loss):
                loss.backward()
                self.critic_opt.step()
    """)
    step = next(event for event in training_loop(ctx).events if event.kind == "step")
    assert step.owners == frozenset({"critic", "self.critic"})


def test_a_reset_covers_its_own_optimizer_and_the_modules_it_holds_not_another_stepped_optimizer() -> None:
    ctx = analyse("""
        import torch
        opt_g = torch.optim.Adam(G.parameters())
        for x in loader:
            opt_d.zero_grad()
            G.zero_grad()
            D.zero_grad()
            loss.backward()
            opt_g.step()
            opt_d.step()
    """)
    training = training_loop(ctx)
    reset_d, reset_g, reset_dm = (e for e in training.events if e.kind == "reset")
    step_g = next(e for e in training.events if e.kind == "step" and e.subject == "opt_g")
    stepped = {"opt_g", "opt_d"}
    assert not training.covers(reset_d, step_g, stepped)
    assert training.covers(reset_g, step_g, stepped)
    assert not training.covers(reset_dm, step_g, stepped)


def test_eval_regions_end_at_the_next_train_and_follow_helpers() -> None:
    ctx = analyse("""
        import torch
        def evaluate(net):
            net.eval()
        model.eval()
        model(x)
        model.train()
        model(y)
        evaluate(model)
        model(w)
    """)
    regions = training_loop(ctx).eval_regions(None)
    assert [(event.subject, event.order < end) for event, end in regions] == [("model", True), ("model", True)]
    first, second = regions
    model_calls = [site for site in training_loop(ctx).calls_in(None) if site.node.func.value == "model"]
    inside = [first[0].order < site.order < first[1] for site in model_calls]
    assert inside == [True, False, False]
    assert [second[0].order < site.order < second[1] for site in model_calls] == [False, False, True]


def test_helper_runs_follows_the_model_into_a_same_file_helper() -> None:
    ctx = analyse("""
        import torch
        def accuracy(net, x):
            return net(x).argmax(1)
        @torch.no_grad()
        def quiet(net, x):
            return net(x)
        accuracy(model, batch)
        quiet(model, batch)
    """)
    training = training_loop(ctx)
    calls = {site.node.func.value: site.node for site in training.calls_in(None)}
    found = training.helper_runs(calls["accuracy"], "model")
    assert found is not None and ctx.code(found) == "net(x)"
    assert training.helper_runs(calls["quiet"], "model") is None


def test_a_helper_s_events_under_a_flag_the_call_turns_off_are_not_reached() -> None:
    """`run_epoch(loader, train=False)` never reaches `if train:` (nor `else` with `train=True`, the default
    included); a flag the call spreads `*args` over, or that the helper rebinds, is unknown, and its events count."""
    ctx = analyse("""
        import torch
        def run_epoch(loader, train=True):
            for batch in loader:
                if train:
                    model(batch).mean().backward()
                    optimizer.step()
                elif not train:
                    model.eval()
        def rebinding(loader, train):
            train = train or warmup
            for batch in loader:
                if train:
                    optimizer.step()
        run_epoch(valid_loader, train=False)
        run_epoch(train_loader)
        run_epoch(train_loader, True)
        run_epoch(*arguments)
        rebinding(valid_loader, False)
    """)
    training = training_loop(ctx)
    calls = [site.node for site in training.calls_in(None) if site.node.func.value in ("run_epoch", "rebinding")]
    assert [sorted(kinds(training.helper_events(call))) for call in calls] == [
        [("eval", "model")],
        [("backward", None), ("step", "optimizer")],
        [("backward", None), ("step", "optimizer")],
        [("backward", None), ("eval", "model"), ("step", "optimizer")],
        [("step", "optimizer")],
    ]


def test_no_grad_is_torch_s_where_nothing_binds_torch() -> None:
    ctx = analyse("""
        from torch import nn
        with torch.no_grad():
            net.eval()
    """)
    assert training_loop(ctx).events[0].grad_disabled


def test_a_decorator_of_the_file_that_calls_its_function_under_no_grad_makes_it_run_without_grad() -> None:
    ctx = analyse("""
        import torch as t
        def nograd(f):
            def wrapped(*args, **kwargs):
                with t.no_grad():
                    return f(*args, **kwargs)
            return wrapped
        def timed(f):
            def wrapped(*args, **kwargs):
                return f(*args, **kwargs)
            return wrapped
        @nograd
        def predict(model, x):
            return model(x)
        @timed
        def evaluate(model, x):
            return model(x)
    """)
    predict, evaluate = ctx.functions["predict"][0], ctx.functions["evaluate"][0]
    assert runs_without_grad(ctx, predict)
    assert not runs_without_grad(ctx, evaluate)


def test_a_backward_whose_result_is_used_is_a_model_s_own_method_not_autograd_s() -> None:
    ctx = analyse("""
        for flow in flows:
            z, log_det = flow.backward(z)
        loss.backward()
    """)
    assert [ctx.code(event.node) for event in training_loop(ctx).events] == ["loss.backward()"]


def test_a_counter_set_back_to_zero_under_its_if_guards_an_accumulated_step() -> None:
    ctx = analyse("""
        import torch
        micro = 0
        for x in loader:
            model(x).sum().backward()
            micro += 1
            if micro == accum:
                opt.step()
                micro = 0
            if global_step >= warmup:
                opt2.step()
            if seen == limit:
                opt3.step()
    """)
    steps = [event for event in training_loop(ctx).events if event.kind == "step"]
    assert [(event.subject, event.accumulation_guard is not None) for event in steps] == [
        ("opt", True), ("opt2", False), ("opt3", False)]


TRAINER = """
    import torch
    import torch.nn.functional as F

    class Trainer:
        def __init__(self, model, optimizer):
            self.model, self.optimizer = model, optimizer

        def train_epoch(self, batches):
            for inputs, labels in batches:
                self.optimizer.zero_grad()
                F.nll_loss(self.model(inputs).log_softmax(-1), labels).backward()
                self.optimizer.step()

        @torch.no_grad()
        def evaluate(self, batches):
            self.model.eval()
            return [self.model(inputs).argmax(1) for inputs, _ in batches]
"""

UTILS = """
    import torch

    @torch.no_grad()
    def evaluate(model, batches):
        model.eval()
        return sum((model(x).argmax(1) == y).sum().item() for x, y in batches)
"""


def lint_project(folder: Path, files: dict[str, str], linted: str, select: str = "SC206") -> list[tuple[str, int]]:
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    path = folder / linted
    result = lint_text(path.read_text(), str(path), resolve([select]))
    return [(finding.code, finding.location.row) for finding in result.findings]


def test_helpers_of_the_project_s_other_modules_are_followed_like_same_file_ones(tmp_path: Path) -> None:
    train = """
        import torch
        import utils
        from trainer import Trainer
        from utils import evaluate
        from utils import evaluate as validate

        trainer = Trainer(model, torch.optim.SGD(model.parameters(), lr=0.1))
        model.train()
        for epoch in range(3):
            trainer.train_epoch(train_set)
            print(trainer.evaluate(val_set))
        for epoch in range(3):
            trainer.train_epoch(train_set)
            print(evaluate(trainer.model, val_set))
        for epoch in range(3):
            trainer.train_epoch(train_set)
            print(utils.evaluate(trainer.model, val_set))
        for epoch in range(3):
            trainer.train_epoch(train_set)
            print(validate(trainer.model, val_set))
    """
    files = {"trainer.py": TRAINER, "utils.py": UTILS, "train.py": train}
    assert lint_project(tmp_path, files, "train.py") == [("SC206", 12), ("SC206", 15), ("SC206", 18),
                                                         ("SC206", 21)]
    fixed = train.replace("    trainer.train_epoch(train_set)",
                          "    model.train()\n            trainer.train_epoch(train_set)")
    assert lint_project(tmp_path, {**files, "train.py": fixed.replace("model.train()", "trainer.model.train()")},
                       "train.py") == []


ATTACKS = """
    from copy import deepcopy

    def ODFA(model, img, rate=16):
        model = deepcopy(model)
        model.eval()
        inputs = img.clone().requires_grad_(True)
        outputs = model(inputs)
        outputs.norm().backward()
        return (img - inputs.grad.sign() * rate).detach()

    def probe(model, img):
        model.eval()
        return model(img).detach()
"""


def test_a_helper_that_switches_a_copy_it_makes_of_the_model_leaves_the_callers_model_training(
        tmp_path: Path) -> None:
    """Person_reID's adversarial training calls `ODFA(model, inputs)`, which makes `model = deepcopy(model)` and
    switches that copy to eval mode: the model the loop trains stays in train mode (SC206 there was wrong). A
    helper that switches the model it is handed (`probe`) still leaves the loop in eval mode."""
    train = """
        import torch.nn as nn
        from ODFA import ODFA, probe

        model.train()
        for epoch in range(3):
            for inputs, labels in loader:
                optimizer.zero_grad()
                loss = criterion(model(inputs), labels) + criterion(model(ODFA(model, inputs)), labels)
                loss.backward()
                optimizer.step()
        for epoch in range(3):
            for inputs, labels in loader:
                optimizer.zero_grad()
                loss = nn.functional.cross_entropy(model(inputs), labels)
                loss.backward()
                optimizer.step()
                features = probe(model, inputs)
    """
    assert lint_project(tmp_path, {"ODFA.py": ATTACKS, "train.py": train}, "train.py") == [("SC206", 18)]


EPOCH_HELPER = """
    import torch.nn.functional as F

    def train_one_epoch(model, optimizer, loader):
        for x, y in loader:
            optimizer.zero_grad()
            F.cross_entropy(model(x), y).backward()
            optimizer.step()
"""


def test_helpers_a_package_re_exports_are_followed_into_their_module(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    train = """
        import torch
        from pkg import evaluate, train_one_epoch

        model.train()
        for epoch in range(3):
            train_one_epoch(model, optimizer, loader)
            print(evaluate(model, loader))
        for epoch in range(3):
            scheduler.step()
            train_one_epoch(model, optimizer, loader)
    """
    files = {"pkg/__init__.py": "from .engine import train_one_epoch\nfrom .utils import evaluate\n",
             "pkg/engine.py": EPOCH_HELPER, "pkg/utils.py": UTILS, "train.py": train}
    assert lint_project(tmp_path, files, "train.py") == [("SC206", 8)]
    # the optimizer steps in the re-exported helper, after the schedule
    assert lint_project(tmp_path, files, "train.py", "SC213") == [("SC213", 10)]
    fixed = train.replace("    scheduler.step()\n            train_one_epoch(model, optimizer, loader)",
                          "    train_one_epoch(model, optimizer, loader)\n            scheduler.step()")
    assert lint_project(tmp_path, {**files, "train.py": fixed}, "train.py", "SC213") == []


MODEL_CLASS = """
    import torch
    import torch.nn.functional as F

    class SRModel:
        def __init__(self, net):
            self.net = net
            self.optimizer = torch.optim.Adam(net.parameters())
            self.schedulers = [torch.optim.lr_scheduler.StepLR(self.optimizer, 10)]

        def update_learning_rate(self):
            for scheduler in self.schedulers:
                scheduler.step()

        def warm_up(self, it):
            if it > 5:
                for scheduler in self.schedulers:
                    scheduler.step()

        def optimize_parameters(self, x, y):
            self.optimizer.zero_grad()
            F.l1_loss(self.net(x), y).backward()
            self.optimizer.step()
"""


def test_a_model_class_of_another_module_stepping_its_schedulers_before_the_optimizer(tmp_path: Path) -> None:
    train = """
        import torch
        from models import SRModel

        model = SRModel(net)
        for it, (x, y) in enumerate(loader):
            model.update_learning_rate()
            model.optimize_parameters(x, y)
    """
    files = {"models.py": MODEL_CLASS, "train.py": train}
    # train.py has no word of a scheduler: the rule runs for what models.py holds
    assert lint_project(tmp_path, files, "train.py", "SC213") == [("SC213", 7)]
    fixed = train.replace("    model.update_learning_rate()\n            model.optimize_parameters(x, y)",
                          "    model.optimize_parameters(x, y)\n            model.update_learning_rate()")
    assert lint_project(tmp_path, {**files, "train.py": fixed}, "train.py", "SC213") == []
    # a step under the helper's own `if` (warm-up) runs on some calls only
    guarded = train.replace("model.update_learning_rate()", "model.warm_up(it)")
    assert lint_project(tmp_path, {**files, "train.py": guarded}, "train.py", "SC213") == []


def test_imported_helpers_events_are_placed_at_the_call(tmp_path: Path) -> None:
    (tmp_path / "trainer.py").write_text(textwrap.dedent(TRAINER))
    PROJECT.forget()
    ctx = Context(cst.parse_module(textwrap.dedent("""
        from trainer import Trainer
        for epoch in range(3):
            trainer.train_epoch(train_set)
    """)), str(tmp_path / "train.py"))
    traverse(ctx, [training_loop(ctx)])
    facts = training_loop(ctx)
    call = facts.local_calls()[None][0].node
    assert kinds(facts.helper_events(call)) == [("reset", "trainer.optimizer"), ("backward", None),
                                                ("step", "trainer.optimizer")]
    assert all(event.node is call for event in facts.helper_events(call))


def test_a_model_class_of_another_module_and_an_imported_switch_to_eval(tmp_path: Path) -> None:
    model = """
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(10, 64), nn.Dropout(0.3), nn.Linear(64, 1))

            def forward(self, x):
                return self.body(x)
    """
    utils = """
        def prepare(model):
            model.eval()
            return model
    """
    predict = """
        import torch
        from model import Net
        from utils import prepare

        model = Net()
        with torch.no_grad():
            for x in batches:
                print(model(x))
    """
    files = {"model.py": model, "utils.py": utils, "predict.py": predict}
    assert lint_project(tmp_path, files, "predict.py", "SC210") == [("SC210", 9)]
    prepared = predict.replace("model = Net()", "model = Net()\n        prepare(model)")
    assert lint_project(tmp_path, {**files, "predict.py": prepared}, "predict.py", "SC210") == []


ENGINE = """
    import torch

    @torch.no_grad()
    def evaluate(model, loader, device):
        model.eval()
        correct = 0
        for batch in loader:
            images, labels = batch
            correct += (model(images).argmax(1).cpu() == labels).sum().item()
        return correct
"""


def test_an_imported_helper_fed_a_moved_model_and_a_cpu_loader_is_reported_at_the_call(tmp_path: Path) -> None:
    main = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        from engine import evaluate

        device = torch.device("cuda")
        model = nn.Linear(8, 2).to(device)
        loader = DataLoader(TensorDataset(torch.randn(16, 8), torch.randint(0, 2, (16,))), batch_size=4)
        print(evaluate(model, loader, device))
        print(evaluate(nn.DataParallel(model), loader, device))
    """
    files = {"engine.py": ENGINE, "main.py": main}
    assert lint_project(tmp_path, files, "main.py", "SC211") == []  # one call hands it a DataParallel
    files["main.py"] = main.replace("        print(evaluate(nn.DataParallel(model), loader, device))\n", "")
    assert lint_project(tmp_path, files, "main.py", "SC211") == [("SC211", 10)]
    moved = ENGINE.replace("images, labels = batch", "images, labels = batch[0].to(device), batch[1]")
    assert lint_project(tmp_path, {**files, "engine.py": moved}, "main.py", "SC211") == []


def test_a_model_an_imported_factory_builds_is_read_in_the_factory(tmp_path: Path) -> None:
    models = """
        import torch.nn as nn

        def build_model(n):
            return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, n))

        def load_model(n):
            return build_model(n).eval()
    """
    infer = """
        import torch
        from models import build_model, load_model

        model = build_model(5)
        with torch.no_grad():
            preds = [model(x).argmax(-1) for x in batches]
            for x in batches:
                preds.append(model(x).argmax(-1))
    """
    files = {"models.py": models, "infer.py": infer}
    assert lint_project(tmp_path, files, "infer.py", "SC210") == [("SC210", 7)]
    files["infer.py"] = infer.replace("model = build_model(5)", "model = load_model(5)")
    assert lint_project(tmp_path, files, "infer.py", "SC210") == []


def test_names_in_reads_through_subscripts() -> None:
    call = cst.parse_expression('output["loss"].backward()')
    assert "output" in names_in(call)


def test_an_if_that_continues_until_a_counter_reaches_k_guards_the_events_after_it() -> None:
    ctx = analyse("""
        import torch
        for x in loader:
            opt.zero_grad()
            model(x).sum().backward()
            micro += 1
            if micro < k:
                continue
            opt.step()
            micro = 0
    """)
    events = {event.kind: event for event in training_loop(ctx).events}
    assert events["reset"].accumulation_guard is None
    assert events["step"].accumulation_guard is not None
    assert events["step"].skipped_by == (events["step"].accumulation_guard,)


def test_a_method_call_is_no_call_of_a_module_level_function_of_that_name() -> None:
    ctx = analyse("""
        import torch
        def train(model, loader, optimizer):
            for x in loader:
                model.train()
                model(x).sum().backward()
                optimizer.step()
        class Trainer:
            def train(self):
                pass
            def fit(self):
                self.train()
                train(self.model, self.loader, self.optimizer)
    """)
    training = training_loop(ctx)
    calls = {ctx.code(site.node): training.definitions_of(site.node) for name in ("train",)
             for site in ctx.calls_to(name)}
    assert [d.name.value for d in calls["model.train()"]] == ["train"]
    assert ctx.class_of_method(calls["model.train()"][0]) is not None
    assert ctx.class_of_method(calls["train(self.model, self.loader, self.optimizer)"][0]) is None


def test_a_shuffling_loader_an_imported_factory_builds_is_iterated_every_epoch(tmp_path: Path) -> None:
    data = """
        from torch.utils.data import DataLoader, DistributedSampler

        def build_loader(dataset, batch_size, shuffle=True):
            sampler = DistributedSampler(dataset, shuffle=shuffle)
            return DataLoader(dataset, batch_size=batch_size, sampler=sampler)

        def build_eval_loader(dataset, batch_size):
            return DataLoader(dataset, batch_size=batch_size, sampler=DistributedSampler(dataset, shuffle=False))
    """
    train = """
        import torch
        from torch.utils.data import TensorDataset
        from data import build_loader, build_eval_loader

        ds = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
        train_loader = build_loader(ds, 8)
        val_loader = build_eval_loader(ds, 8)
        for epoch in range(3):
            for x, y in train_loader:
                pass
            for x, y in val_loader:
                pass
    """
    files = {"data.py": data, "train.py": train}
    assert lint_project(tmp_path, files, "train.py", "SC215") == [("SC215", 10)]
    fixed = train.replace("        for epoch in range(3):\n",
                          "        for epoch in range(3):\n            train_loader.sampler.set_epoch(epoch)\n")
    assert lint_project(tmp_path, {**files, "train.py": fixed}, "train.py", "SC215") == []


def test_a_trainer_handed_its_optimizers_knows_what_each_holds() -> None:
    ctx = analyse("""
        import torch
        class Trainer:
            def __init__(self, generator, discriminator, g_optimizer, d_optimizer):
                self.G, self.D = generator, discriminator
                self.g_opt = g_optimizer
                self.d_opt = d_optimizer
            def fit(self, loader):
                for z in loader:
                    self.g_opt.step()
                    self.d_opt.step()
        class Partial:
            def __init__(self, generator, g_optimizer):
                self.G, self.g_opt = generator, g_optimizer
            def fit(self, loader):
                for z in loader:
                    self.g_opt.step()
        def main(G, D):
            g_opt = torch.optim.Adam(G.parameters())
            Trainer(G, D, g_opt, torch.optim.Adam(D.parameters()))
            Partial(G, torch.optim.Adam(list(G.parameters()) + list(D.parameters())))
    """)
    training = training_loop(ctx)
    steps = [event for event in training.events if event.kind == "step"]
    # the partial trainer's optimizer also holds D, which it is not handed: unknown
    assert [training.owners_of(step) for step in steps] == [frozenset({"self.G"}), frozenset({"self.D"}), None]


def test_a_function_handed_its_optimizers_knows_what_each_holds() -> None:
    ctx = analyse("""
        import torch
        def update(actor, critic, actor_opt, critic_opt):
            critic_opt.step()
            actor_opt.step()
        def main(pi, q):
            update(pi, q, torch.optim.Adam(pi.parameters()), torch.optim.Adam(q.parameters()))
            update(actor=pi, critic=q, actor_opt=torch.optim.SGD(pi.parameters()), critic_opt=None)
    """)
    training = training_loop(ctx)
    steps = [event for event in training.events if event.kind == "step"]
    # the second call hands `critic_opt` no optimizer the file builds: what it holds is unknown
    assert [training.owners_of(step) for step in steps] == [None, frozenset({"actor"})]


def test_a_model_class_of_another_module_is_a_model_for_numpy_of_its_outputs(tmp_path: Path) -> None:
    model = """
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(16, 4)

            def forward(self, x):
                return self.fc(x)
    """
    predict = """
        import torch
        from model import Net

        def predict(model, batches):
            model.eval()
            return [model(x).softmax(-1).numpy() for x in batches]

        print(predict(Net(), [torch.randn(4, 16)]))
    """
    files = {"model.py": model, "predict.py": predict}
    assert lint_project(tmp_path, files, "predict.py", "SC207") == [("SC207", 7)]
    detached = predict.replace(".softmax(-1).numpy()", ".softmax(-1).detach().numpy()")
    assert lint_project(tmp_path, {**files, "predict.py": detached}, "predict.py", "SC207") == []
    no_grad = predict.replace("        def predict", "        @torch.no_grad()\n        def predict")
    assert lint_project(tmp_path, {**files, "predict.py": no_grad}, "predict.py", "SC207") == []


def test_a_metrics_module_without_torch_is_reported_at_the_calls_that_hand_it_a_graph(tmp_path: Path) -> None:
    metrics = """
        import numpy as np

        class CalibrationMeter:
            def __init__(self, bins=10):
                self.bins = bins
                self.confidences = []

            def add(self, confidence):
                self.confidences.append(confidence.numpy())

            def histogram(self):
                return np.histogram(np.concatenate(self.confidences), bins=self.bins)

        def top1_agreement(probs, labels):
            return float((probs.cpu().numpy().argmax(1) == labels.numpy()).mean())
    """
    train = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from metrics import CalibrationMeter, top1_agreement

        net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        meter = CalibrationMeter()
        for x, y in loader:
            probs = net(x).softmax(dim=1)
            loss = F.nll_loss(probs.log(), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            meter.add(probs)
            print(top1_agreement(probs, y))
    """
    files = {"metrics.py": metrics, "train.py": train}
    assert lint_project(tmp_path, files, "train.py", "SC207") == [("SC207", 16), ("SC207", 17)]
    detached = train.replace("meter.add(probs)", "meter.add(probs.detach())").replace("(probs, y)", "(probs.detach(), y)")
    assert lint_project(tmp_path, {**files, "train.py": detached}, "train.py", "SC207") == []
    evaluated = train.replace("            meter.add(probs)", "            with torch.no_grad():\n"
                              "                meter.add(net(x).softmax(dim=1))")
    assert lint_project(tmp_path, {**files, "train.py": evaluated}, "train.py", "SC207") == [("SC207", 18)]
    # a metrics module that imports torch is linted itself: the finding is there, not at the call
    files["metrics.py"] = metrics.replace("import numpy as np", "import numpy as np\nimport torch")
    assert lint_project(tmp_path, files, "train.py", "SC207") == []


def test_a_model_method_s_return_carries_the_graph_as_forward_s_does(tmp_path: Path) -> None:
    model = """
        import torch
        import torch.nn as nn

        class PairRanker(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.score = nn.Bilinear(dim, dim, 1)

            def forward(self, query, doc):
                return self.score(query, doc).squeeze(-1)

            def relevance(self, query, doc):
                raw = self(query, doc)
                return raw, torch.sigmoid(raw)

            @torch.no_grad()
            def rank(self, query, doc):
                return torch.sigmoid(self(query, doc))

            def top(self, query, doc):
                return self(query, doc).argmax(), self(query, doc).detach()
    """
    train = """
        import torch
        import torch.nn.functional as F
        from model import PairRanker

        ranker = PairRanker(32)
        history = []
        for query, doc, label in batches:
            raw, p = ranker.relevance(query, doc)
            loss = F.binary_cross_entropy_with_logits(raw, label)
            loss.backward()
            history.append(p.numpy())
            history.append(ranker.rank(query, doc).numpy())
            best, kept = ranker.top(query, doc)
            history.append(best.numpy())
            history.append(kept.numpy())
    """
    files = {"model.py": model, "train.py": train}
    assert lint_project(tmp_path, files, "train.py", "SC207") == [("SC207", 12)]
    assert lint_project(tmp_path, {**files, "train.py": train.replace("p.numpy()", "p.detach().numpy()")},
                        "train.py", "SC207") == []


def test_mode_switches_are_the_file_s_own_and_its_helpers_as_the_file_spells_them() -> None:
    ctx = analyse("""
        import torch
        def evaluate(net):
            net.eval()
        def train(net):
            net.train()
            net(x).sum().backward()
        model.train(False)
        evaluate(model)
        train(encoder)
        trainer.fit(data)
    """)
    switches = training_loop(ctx).mode_switches()
    assert {(event.kind, event.subject) for event in switches} == {
        ("eval", "net"), ("train", "net"), ("eval", "model"), ("train", "encoder")}


def test_a_call_that_may_switch_a_mode_whatever_its_receiver() -> None:
    function = cst.parse_module(textwrap.dedent("""
        def load(path):
            model = build(path)
            model.to(device).eval()
            return model
        def fit(trainer):
            trainer.fit(data)
            return train(trainer)
    """))
    load, fit = function.body
    assert switches_mode(load) and not switches_mode(fit)  # `train(trainer)` is a function, no module's method
    calls = [node for node in walk(load) if type(node) is cst.Call]
    assert [may_switch_mode(call) for call in calls] == [False, True, False]
