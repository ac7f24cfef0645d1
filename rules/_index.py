"""Each rule's module, whether it is on by default, its triggers and whether they are looked for through
imports, by code: what a lint decides before importing a rule (`engine.registry.rule_index`). Generated
by `python -m shapecheck.rule_docs` from the rules' classes; never edit it by hand."""

RULES = {
    "SC101": ("view_after_transpose", True, (
        ".view(",
    ), True),
    "SC102": ("cat_of_scalars", True, (
        "cat(", "concatenate(",
    ), False),
    "SC103": ("stack_cat_roundtrip", True, (
        "unsqueeze", "None]", "stack(",
    ), False),
    "SC104": ("broadcast_surprise", True, (
        "torch",
    ), False),
    "SC105": ("shape_mismatch", True, (
        "torch",
    ), False),
    "SC106": ("cross_entropy_shape", True, (
        "cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss",
    ), True),
    "SC107": ("non_scalar_item_or_backward", True, (
        ".item(", "float(", "int(", "bool(", "complex(", "backward(", "if ", "while ", "assert ", " and ",
        " or ", "not ",
    ), True),
    "SC108": ("annotation_mismatch", True, (
        "jaxtyping",
    ), True),
    "SC201": ("missing_zero_grad", True, (
        "backward",
    ), False),
    "SC202": ("update_outside_no_grad", True, (
        ".grad",
    ), False),
    "SC203": ("eval_without_no_grad", True, (
        ".eval(", ".train(False", ".train(mode=False",
    ), False),
    "SC204": ("integer_requires_grad", True, (
        "requires_grad", "Parameter(",
    ), False),
    "SC205": ("direct_forward_call", True, (
        ".forward(",
    ), False),
    "SC206": ("stuck_in_eval", True, (
        ".eval(", ".train(False", ".train(mode=False", "train",
    ), False),
    "SC207": ("numpy_of_graph_tensor", True, (
        ".numpy()",
    ), False),
    "SC208": ("graph_kept_alive", True, (
        "backward", "training_step",
    ), False),
    "SC209": ("step_between_backward", True, (
        ".backward(",
    ), False),
    "SC210": ("inference_without_eval", True, (
        "no_grad", "inference_mode",
    ), False),
    "SC211": ("input_not_on_model_device", True, (
        ".to(", ".cuda(",
    ), False),
    "SC212": ("tensor_created_off_device", True, (
        "def forward", "LightningModule",
    ), False),
    "SC213": ("scheduler_before_optimizer", True, (
        "sched", "Sched", "LR(",
    ), False),
    "SC214": ("clip_before_unscale", True, (
        "clip_grad_",
    ), False),
    "SC215": ("sampler_without_set_epoch", True, (
        "DistributedSampler", "loader", "Loader",
    ), False),
    "SC216": ("inplace_on_saved_tensor", True, (
        "_(", "+=", "-=", "*=", "/=", "] =", "inplace",
    ), False),
    "SC217": ("modules_in_plain_list", True, (
        "nn.", "Module",
    ), False),
    "SC218": ("accumulation_reset_every_step", True, (
        "backward",
    ), False),
    "SC301": ("log_of_softmax", True, (
        "softmax", "sigmoid", "Softmax", "Sigmoid", "expit",
    ), False),
    "SC302": ("softmax_without_dim", True, (
        "softmax", "Softmax", "softmin", "Softmin",
    ), False),
    "SC303": ("loss_on_probabilities", True, (
        "cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss",
    ), False),
    "SC304": ("bce_with_activation", True, (
        "binary_cross_entropy", "BCELoss", "BCEWithLogitsLoss",
    ), False),
    "SC401": ("uninitialized_tensor", True, (
        "Tensor(", "empty(",
    ), False),
    "SC402": ("deprecated_cuda_amp", True, (
        "cuda.amp", "cuda import amp",
    ), False),
    "SC403": ("float64_on_mps", True, (
        "mps",
    ), False),
    "SC501": ("unsafe_torch_load", False, (
        "load(",
    ), False),
    "SC900": ("unused_noqa", False, (
    ), False),
}
