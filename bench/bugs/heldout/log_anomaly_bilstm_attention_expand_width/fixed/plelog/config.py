import configparser

DEFAULTS = """
[Network]
word_dims = 24
lstm_hiddens = 32
lstm_layers = 1
bidirectional = true
dropout = 0.1

[Run]
batch_size = 8
epochs = 2
lr = 0.002
"""


def load_config(text=DEFAULTS):
    parser = configparser.ConfigParser()
    parser.read_string(text)
    return parser
