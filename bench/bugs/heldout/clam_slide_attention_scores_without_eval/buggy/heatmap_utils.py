import torch


def infer_single_slide(model, features):
    with torch.no_grad():
        logits, y_prob, A = model(features)
        y_hat = torch.topk(logits, 1, dim=1)[1]
    return y_hat.item(), y_prob, A.squeeze(0)


def compute_attention_scores(model, slides):
    """Attention of every patch of every slide, for the heatmaps (top-k patches are saved for review)."""
    results = {}
    for slide_id, features in slides.items():
        pred, prob, attn = infer_single_slide(model, features)
        results[slide_id] = {"pred": pred, "prob": prob[0, pred].item(), "topk": attn.topk(3).indices.tolist()}
    return results
