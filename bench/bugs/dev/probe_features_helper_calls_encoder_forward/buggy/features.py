import torch


class ActivationRecorder:
    """Collects the pooled output of the encoder through a forward hook."""

    def __init__(self, module):
        self.outputs = []
        self.handle = module.register_forward_hook(self._hook)

    def _hook(self, module, inputs, output):
        self.outputs.append(output.mean(dim=1).detach())

    def pop(self):
        feats, self.outputs = torch.cat(self.outputs), []
        return feats

    def remove(self):
        self.handle.remove()


@torch.no_grad()
def embed_dataset(encoder, batches):
    recorder = ActivationRecorder(encoder)
    try:
        for mels in batches:
            encoder.forward(mels)
        return recorder.pop()
    finally:
        recorder.remove()
