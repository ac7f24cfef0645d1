import torch


class AMPEngine:
    def __init__(self):
        self.device = "cuda" if torch.cuda.is_available() else "cpu"
        self.scaler = torch.amp.GradScaler(self.device)

    def autocast(self):
        return torch.autocast(self.device, dtype=torch.bfloat16)

    def backward_loss(self, loss, model, optimizer):
        self.scaler.scale(loss).backward()

    def unscale_gradients(self, optimizer):
        self.scaler.unscale_(optimizer)

    def optimizer_step(self, loss, model, optimizer):
        self.scaler.step(optimizer)
        self.scaler.update()

    def zero_grad(self, loss, model, optimizer):
        model.zero_grad()


class OptimizerCallback:
    def __init__(self, metric_key, model, optimizer, accumulation_steps=1, grad_clip_fn=None):
        self.metric_key = metric_key
        self.model, self.optimizer = model, optimizer
        self.accumulation_steps = accumulation_steps
        self.grad_clip_fn = grad_clip_fn
        self._accumulation_counter = 0

    def on_batch_end(self, runner):
        if not runner.is_train_loader:
            return
        self._accumulation_counter += 1
        need_gradient_step = self._accumulation_counter % self.accumulation_steps == 0

        loss = runner.batch_metrics[self.metric_key]
        runner.engine.backward_loss(loss, self.model, self.optimizer)

        if need_gradient_step:
            if self.grad_clip_fn is not None:
                runner.engine.unscale_gradients(self.optimizer)
                self.grad_clip_fn(self.model.parameters())
            runner.engine.optimizer_step(loss, self.model, self.optimizer)
            runner.engine.zero_grad(loss, self.model, self.optimizer)
