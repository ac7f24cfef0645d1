import torch
import torch.nn as nn


class TinyDETR(nn.Module):
    def __init__(self, num_queries=6, dim=32, num_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, dim, 4, stride=4), nn.ReLU())
        self.query_embed = nn.Embedding(num_queries, dim)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(dim, 4, 64, batch_first=True), 1)
        self.class_embed = nn.Linear(dim, num_classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 4))

    def forward(self, images):
        memory = self.backbone(images).flatten(2).transpose(1, 2)
        queries = self.query_embed.weight.unsqueeze(0).expand(images.size(0), -1, -1)
        hs = self.decoder(queries, memory)
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}


def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    return torch.stack([x_c - 0.5 * w, y_c - 0.5 * h, x_c + 0.5 * w, y_c + 0.5 * h], dim=-1)


def rescale_bboxes(out_bbox, size):
    img_w, img_h = size
    return box_cxcywh_to_xyxy(out_bbox) * torch.tensor([img_w, img_h, img_w, img_h], dtype=torch.float32)


def plot_results(probs, boxes):
    for p, (xmin, ymin, xmax, ymax) in zip(probs, boxes.tolist()):
        cl = p.argmax().item()
        print(f"class {cl} p={p[cl].item():.2f} box=({xmin:.1f}, {ymin:.1f}, {xmax:.1f}, {ymax:.1f})")


def main():
    torch.manual_seed(0)
    model = TinyDETR()
    model.eval()
    im = torch.rand(1, 3, 64, 64)
    outputs = model(im)
    probas = outputs["pred_logits"].softmax(-1)[0, :, :-1]
    keep = probas.max(-1).values > 0.0
    bboxes_scaled = rescale_bboxes(outputs["pred_boxes"][0, keep], (64, 64))
    plot_results(probas[keep].detach(), bboxes_scaled.detach().numpy())


if __name__ == "__main__":
    main()
