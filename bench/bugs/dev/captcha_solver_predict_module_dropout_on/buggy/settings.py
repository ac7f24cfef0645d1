import string

CHARSET = string.digits + string.ascii_uppercase
CAPTCHA_LEN = 4
IMAGE_HEIGHT = 24
IMAGE_WIDTH = 64
BATCH_SIZE = 32
EPOCHS = 2
LEARNING_RATE = 1e-3
