from .pix2pix_model import Pix2PixModel


def create_model(opt):
    model = Pix2PixModel(opt)
    print(f"model [{type(model).__name__}] was created")
    return model
