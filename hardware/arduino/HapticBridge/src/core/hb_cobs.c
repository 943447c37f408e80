#include "hb_cobs.h"

void hb_cobs_encoder_begin(hb_cobs_encoder *encoder, uint8_t *out, size_t capacity)
{
    encoder->out = out;
    encoder->capacity = capacity;
    encoder->length = 0;
    encoder->code_index = 0;
    encoder->code = 1;
    encoder->open = 0;
    encoder->need_block = 1; /* even empty input encodes to one block: 0x01 */
    encoder->failed = 0;
}

static void close_block(hb_cobs_encoder *encoder)
{
    encoder->out[encoder->code_index] = encoder->code;
    encoder->open = 0;
}

void hb_cobs_encoder_push(hb_cobs_encoder *encoder, uint8_t byte)
{
    if (encoder->failed) {
        return;
    }
    if (!encoder->open) {
        /* Blocks open lazily, so input ending on a full block needs no empty 0x01 block. */
        if (encoder->length >= encoder->capacity) {
            encoder->failed = 1;
            return;
        }
        encoder->code_index = encoder->length++;
        encoder->code = 1;
        encoder->open = 1;
    }
    if (byte == 0u) {
        close_block(encoder);
        encoder->need_block = 1; /* the byte after a zero starts a block, even if there is none */
        return;
    }
    if (encoder->length >= encoder->capacity) {
        encoder->failed = 1;
        return;
    }
    encoder->out[encoder->length++] = byte;
    encoder->code++;
    if (encoder->code == 0xFFu) {
        close_block(encoder);
        encoder->need_block = 0;
    }
}

hb_cobs_status hb_cobs_encoder_end(hb_cobs_encoder *encoder, size_t *out_length)
{
    if (!encoder->failed && !encoder->open && encoder->need_block) {
        if (encoder->length >= encoder->capacity) {
            encoder->failed = 1;
        } else {
            encoder->code_index = encoder->length++;
            encoder->code = 1;
            encoder->open = 1;
        }
    }
    if (encoder->failed) {
        return HB_COBS_ERR_SPACE;
    }
    if (encoder->open) {
        close_block(encoder);
    }
    *out_length = encoder->length;
    return HB_COBS_OK;
}

hb_cobs_status hb_cobs_encode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity,
                              size_t *out_length)
{
    hb_cobs_encoder encoder;
    size_t i;
    hb_cobs_encoder_begin(&encoder, out, capacity);
    for (i = 0; i < length; i++) {
        hb_cobs_encoder_push(&encoder, in[i]);
    }
    return hb_cobs_encoder_end(&encoder, out_length);
}

hb_cobs_status hb_cobs_decode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity,
                              size_t *out_length)
{
    size_t read_index = 0;
    size_t write_index = 0;

    while (read_index < length) {
        uint8_t code = in[read_index++];
        uint8_t i;
        if (code == 0u) {
            return HB_COBS_ERR_ZERO;
        }
        for (i = 1; i < code; i++) {
            uint8_t byte;
            if (read_index >= length) {
                return HB_COBS_ERR_TRUNCATED;
            }
            byte = in[read_index++];
            if (byte == 0u) {
                return HB_COBS_ERR_ZERO;
            }
            if (write_index >= capacity) {
                return HB_COBS_ERR_SPACE;
            }
            out[write_index++] = byte;
        }
        /* The implied 0x00 of a short block, except after the last block. */
        if (code != 0xFFu && read_index < length) {
            if (write_index >= capacity) {
                return HB_COBS_ERR_SPACE;
            }
            out[write_index++] = 0u;
        }
    }
    *out_length = write_index;
    return HB_COBS_OK;
}
