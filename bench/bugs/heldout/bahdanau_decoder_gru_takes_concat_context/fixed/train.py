import logging
import random
import time

import torch
import torch.nn.functional as F

from nmt.models import BahdanauAttnDecoderRNN, EncoderRNN

logging.basicConfig(level=logging.INFO)
log = logging.getLogger(__name__)

SOS_TOKEN = 1
hidden_size = 32
input_lang_words, output_lang_words = 60, 45
teacher_forcing_ratio = 0.5
clip = 5.0


def train_batch(input_batch, target_batch, encoder, decoder, encoder_optimizer, decoder_optimizer):
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    batch_size = input_batch.size(1)
    encoder_outputs, encoder_hidden = encoder(input_batch)

    decoder_input = torch.full((batch_size,), SOS_TOKEN, dtype=torch.long)
    decoder_hidden = encoder_hidden
    loss = 0.0
    for t in range(target_batch.size(0)):
        decoder_output, decoder_hidden, _ = decoder(decoder_input, decoder_hidden, encoder_outputs)
        loss = loss + F.nll_loss(decoder_output, target_batch[t])
        if random.random() < teacher_forcing_ratio:
            decoder_input = target_batch[t]
        else:
            decoder_input = decoder_output.argmax(dim=1)

    loss.backward()
    torch.nn.utils.clip_grad_norm_(encoder.parameters(), clip)
    torch.nn.utils.clip_grad_norm_(decoder.parameters(), clip)
    encoder_optimizer.step()
    decoder_optimizer.step()
    return loss.item() / target_batch.size(0)


def main():
    torch.manual_seed(0)
    random.seed(0)
    encoder = EncoderRNN(input_lang_words, hidden_size)
    decoder = BahdanauAttnDecoderRNN(hidden_size, output_lang_words)
    encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
    decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=5e-3)
    start = time.time()
    for it in range(3):
        src = torch.randint(2, input_lang_words, (7, 4))
        tgt = torch.randint(2, output_lang_words, (6, 4))
        loss = train_batch(src, tgt, encoder, decoder, encoder_optimizer, decoder_optimizer)
        log.info("iter %d loss %.4f (%.1fs)", it, loss, time.time() - start)


if __name__ == "__main__":
    main()
