import weakref


class TrainerBase:
    def __init__(self):
        self._hooks = []
        self.iter = 0
        self.storage = {}

    def register_hooks(self, hooks):
        for h in hooks:
            h.trainer = weakref.proxy(self)
        self._hooks.extend(hooks)

    def _call(self, event):
        for h in self._hooks:
            getattr(h, event)()

    def train(self, start_iter, max_iter):
        self._call("before_train")
        for self.iter in range(start_iter, max_iter):
            self._call("before_step")
            self.run_step()
            self._call("after_step")
        self._call("after_train")


class SimpleTrainer(TrainerBase):
    def __init__(self, model, data_loader, optimizer):
        super().__init__()
        self.model = model
        self.data_loader = data_loader
        self._data_iter = iter(data_loader)
        self.optimizer = optimizer

    def next_batch(self):
        try:
            return next(self._data_iter)
        except StopIteration:
            self._data_iter = iter(self.data_loader)
            return next(self._data_iter)

    def run_step(self):
        self.model.train()
        images, targets = self.next_batch()
        loss_dict = self.model(images, targets)
        losses = sum(loss_dict.values())
        self.optimizer.zero_grad()
        losses.backward()
        self.optimizer.step()
        self.storage.update({k: v.item() for k, v in loss_dict.items()})
