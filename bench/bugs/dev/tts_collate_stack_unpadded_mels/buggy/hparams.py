n_mels = 20
vocab_size = 40
encoder_dim = 32
batch_size = 3
learning_rate = 1e-3
epochs = 1
