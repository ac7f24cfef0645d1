import argparse


def parse_opt():
    parser = argparse.ArgumentParser(description="text classification benchmark")
    parser.add_argument("--model", type=str, default="lstm")
    parser.add_argument("--vocab_size", type=int, default=300)
    parser.add_argument("--embedding_dim", type=int, default=32)
    parser.add_argument("--hidden_dim", type=int, default=32)
    parser.add_argument("--label_size", type=int, default=4)
    parser.add_argument("--max_seq_len", type=int, default=20)
    parser.add_argument("--batch_size", type=int, default=16)
    parser.add_argument("--keep_dropout", type=float, default=0.2)
    parser.add_argument("--learning_rate", type=float, default=2e-3)
    parser.add_argument("--max_epoch", type=int, default=2)
    parser.add_argument("--grad_clip", type=float, default=5.0)
    return parser.parse_args()
