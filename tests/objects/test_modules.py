"""Which calls of other packages are known to return an `nn.Module` (a rule about modules reports nothing else)."""

from __future__ import annotations

import pytest

from shapecheck.objects.modules import builds_module


@pytest.mark.parametrize("qualname", [
    "torchvision.models.resnet18",
    "torchvision.models.detection.fasterrcnn_resnet50_fpn",
    "torchvision.models.get_model",
    "timm.create_model",
    "transformers.AutoModel.from_pretrained",
    "transformers.AutoModelForCausalLM.from_config",
    "transformers.BertForSequenceClassification.from_pretrained",
    "transformers.GPT2LMHeadModel.from_pretrained",
])
def test_model_builders_return_modules(qualname: str) -> None:
    assert builds_module(qualname)


@pytest.mark.parametrize("qualname", [
    "torchvision.models.get_weight",                     # the weights API beside the builders
    "torchvision.models.list_models",
    "torchvision.datasets.mnist",
    "timm.data.create_transform",
    "torch.hub.load",                                    # a hub entry point may return a tokenizer or a pipeline
    "transformers.AutoTokenizer.from_pretrained",
    "transformers.AutoConfig.from_pretrained",
    "transformers.TFAutoModel.from_pretrained",          # Keras
    "transformers.FlaxBertForMaskedLM.from_pretrained",  # Flax
    "transformers.AutoModel.register",
])
def test_other_calls_do_not(qualname: str) -> None:
    assert not builds_module(qualname)
