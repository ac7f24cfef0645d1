import torch


def build_optimizer(params, lr, weight_decay=1e-2, use_8bit=False):
    if use_8bit:
        raise NotImplementedError("bitsandbytes is not installed in this environment")
    return torch.optim.AdamW(params, lr=lr, weight_decay=weight_decay)


def optimizer_step(loss, parameters, optimizer, scaler, max_grad_norm=1.0):
    parameters = list(parameters)
    scaler.scale(loss).backward()
    if max_grad_norm > 0:
        torch.nn.utils.clip_grad_norm_(parameters, max_grad_norm)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
