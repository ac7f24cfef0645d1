import torch
import torch.nn.functional as F


class FixMatch:
    def __init__(self, model, lr: float = 0.03, threshold: float = 0.95, lambda_u: float = 1.0, clip: float = 1.0,
                 device: str = "cpu"):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)
        self.scaler = torch.amp.GradScaler(device)
        self.device = device
        self.threshold, self.lambda_u, self.clip = threshold, lambda_u, clip

    def train_step(self, x_lb, y_lb, x_ulb_w, x_ulb_s) -> dict:
        num_lb = x_lb.shape[0]
        with torch.autocast(self.device, dtype=torch.bfloat16):
            logits = self.model(torch.cat((x_lb, x_ulb_w, x_ulb_s)))
            logits_x_lb = logits[:num_lb]
            logits_x_ulb_w, logits_x_ulb_s = logits[num_lb:].chunk(2)
            sup_loss = F.cross_entropy(logits_x_lb, y_lb)
            probs = torch.softmax(logits_x_ulb_w.detach().float(), dim=-1)
            max_probs, pseudo = probs.max(dim=-1)
            mask = max_probs.ge(self.threshold).float()
            unsup_loss = (F.cross_entropy(logits_x_ulb_s, pseudo, reduction="none") * mask).mean()
            total_loss = sup_loss + self.lambda_u * unsup_loss

        self.optimizer.zero_grad()
        self.scaler.scale(total_loss).backward()
        if self.clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return {"sup": sup_loss.item(), "unsup": unsup_loss.item(), "mask": mask.mean().item()}
