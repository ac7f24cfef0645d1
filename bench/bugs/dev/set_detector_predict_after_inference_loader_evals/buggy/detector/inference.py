import torch

from .model import SetPredictor


def load_for_inference(model: SetPredictor, checkpoint_path=None) -> SetPredictor:
    if checkpoint_path is not None:
        state = torch.load(checkpoint_path, map_location="cpu")
        model.load_state_dict(state["model"])
    model.eval()
    return model


@torch.no_grad()
def predict_boxes(model: SetPredictor, images, threshold=0.5):
    outputs = model(images)
    probas = outputs["pred_logits"].softmax(-1)[..., :-1]
    scores, labels = probas.max(-1)
    keep = scores > threshold
    return [
        {"scores": s[k], "labels": l[k], "boxes": b[k]}
        for s, l, b, k in zip(scores, labels, outputs["pred_boxes"], keep)
    ]
