import time
from collections import defaultdict

import torch

from llama import AttentionMHA, ModelArgs, Transformer


class AttentionProfiler:
    """Times every attention call through forward pre/post hooks."""

    def __init__(self, model):
        self.calls = defaultdict(int)
        self.elapsed = defaultdict(float)
        self._start = {}
        for name, module in model.named_modules():
            if isinstance(module, AttentionMHA):
                module.register_forward_pre_hook(self._pre(name))
                module.register_forward_hook(self._post(name))

    def _pre(self, name):
        def hook(module, args):
            self._start[name] = time.perf_counter()
        return hook

    def _post(self, name):
        def hook(module, args, output):
            self.calls[name] += 1
            self.elapsed[name] += time.perf_counter() - self._start.pop(name)
        return hook

    def report(self):
        for name in sorted(self.calls):
            print(f"{name}: {self.calls[name]} calls, {1e3 * self.elapsed[name]:.2f} ms")
        if not self.calls:
            print("no attention calls recorded")


def main():
    torch.manual_seed(0)
    args = ModelArgs()
    model = Transformer(args).eval()
    profiler = AttentionProfiler(model)
    tokens = torch.randint(0, args.vocab_size, (2, args.max_seq_len))
    with torch.inference_mode():
        for _ in range(3):
            model(tokens)
    profiler.report()


if __name__ == "__main__":
    main()
