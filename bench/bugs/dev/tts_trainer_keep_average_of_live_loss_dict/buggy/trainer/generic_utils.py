class KeepAverage:
    """Running averages of named values, updated once per step and printed by the console logger."""

    def __init__(self):
        self.avg_values = {}
        self.iters = {}

    def __getitem__(self, key):
        return self.avg_values[key]

    def items(self):
        return self.avg_values.items()

    def add_value(self, name, init_val=0, init_iter=0):
        self.avg_values[name] = init_val
        self.iters[name] = init_iter

    def update_value(self, name, value, weighted_avg=False):
        if name not in self.avg_values:
            self.add_value(name, init_val=value)
        else:
            if weighted_avg:
                self.avg_values[name] = 0.99 * self.avg_values[name] + (1 - 0.99) * value
                self.iters[name] += 1
            else:
                self.avg_values[name] = self.avg_values[name] * self.iters[name] + value
                self.iters[name] += 1
                self.avg_values[name] /= self.iters[name]

    def update_values(self, value_dict):
        for key, value in value_dict.items():
            self.update_value(key, value)


def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
