class AverageMeter:
    def __init__(self, *keys):
        self.__data = {k: [0.0, 0] for k in keys}

    def add(self, dict):
        for k, v in dict.items():
            self.__data[k][0] += v
            self.__data[k][1] += 1

    def get(self, *keys):
        return tuple(self.__data[k][0] / max(self.__data[k][1], 1) for k in keys)

    def pop(self, key):
        v = self.get(key)[0]
        self.__data[key] = [0.0, 0]
        return v
