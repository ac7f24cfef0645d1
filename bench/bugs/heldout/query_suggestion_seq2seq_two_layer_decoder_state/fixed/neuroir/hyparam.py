MODEL_ARCHITECTURE = {
    "emsize": 24,
    "nhid": 32,
    "bidirection": True,
    "nlayers": 1,
    "dropout_rnn": 0.2,
    "dropout_emb": 0.2,
}

TRAINING = {"batch_size": 8, "learning_rate": 2e-3, "num_epochs": 2, "grad_clipping": 5.0}
