import torch
import torch.nn.functional as F

from text_encoder import TextTransformer
from tokenizer import tokenize

PROMPTS = ["a cat", "a red car", "two dogs"]


def main():
    torch.manual_seed(0)
    model = TextTransformer(context_length=16)
    model.eval()
    tokens = tokenize(PROMPTS, max_len=model.context_length)
    with torch.no_grad():
        features = F.normalize(model(tokens), dim=-1)
    print("similarity\n", features @ features.t())


if __name__ == "__main__":
    main()
