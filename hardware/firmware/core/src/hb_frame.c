#include "hb_frame.h"

#include "hb_crc16.h"

enum { RECEIVING = 0, DISCARDING = 1 };

/* C99 has no static_assert: a negative array size fails the build if a literal in hb_frame.h drifts. */
typedef char hb_frame_min_raw_check[(HB_FRAME_MIN_RAW == HB_FRAME_HEADER_SIZE + HB_FRAME_CRC_SIZE) ? 1 : -1];
typedef char hb_frame_max_raw_check[(HB_FRAME_MAX_RAW == HB_FRAME_HEADER_SIZE + HB_FRAME_MAX_PAYLOAD + HB_FRAME_CRC_SIZE) ? 1 : -1];
typedef char hb_frame_max_wire_check[(HB_FRAME_MAX_WIRE == HB_COBS_MAX_ENCODED(HB_FRAME_MAX_RAW) + 1u) ? 1 : -1];
typedef char hb_frame_length_fits_u8[(HB_FRAME_MAX_RAW <= 255u) ? 1 : -1];

/* Stuffs header, payload and checksum straight into `out`: no raw copy on the stack. */
size_t hb_frame_encode(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                       uint8_t *out, size_t capacity)
{
    hb_cobs_encoder encoder;
    uint8_t head[HB_FRAME_HEADER_SIZE];
    uint16_t crc = HB_CRC16_INIT;
    size_t encoded_length = 0;
    size_t i;

    if (payload_length > HB_FRAME_MAX_PAYLOAD || capacity == 0u) {
        return 0;
    }
    head[0] = header->version;
    head[1] = header->type;
    head[2] = header->sequence;
    head[3] = header->flags;
    hb_cobs_encoder_begin(&encoder, out, capacity - 1u); /* keep one byte for the delimiter */
    for (i = 0; i < HB_FRAME_HEADER_SIZE; i++) {
        crc = hb_crc16_update(crc, head[i]);
        hb_cobs_encoder_push(&encoder, head[i]);
    }
    for (i = 0; i < payload_length; i++) {
        crc = hb_crc16_update(crc, payload[i]);
        hb_cobs_encoder_push(&encoder, payload[i]);
    }
    hb_cobs_encoder_push(&encoder, (uint8_t)(crc & 0xFFu));
    hb_cobs_encoder_push(&encoder, (uint8_t)(crc >> 8));
    if (hb_cobs_encoder_end(&encoder, &encoded_length) != HB_COBS_OK) {
        return 0;
    }
    out[encoded_length] = 0u;
    return encoded_length + 1u;
}

void hb_frame_decoder_init(hb_frame_decoder *decoder)
{
    decoder->length = 0;
    decoder->crc = HB_CRC16_INIT;
    decoder->block_remaining = 0;
    decoder->zero_pending = 0;
    decoder->state = RECEIVING;
    decoder->started = 0;
    decoder->stats.frames = 0;
    decoder->stats.too_long = 0;
    decoder->stats.cobs = 0;
    decoder->stats.short_frames = 0;
    decoder->stats.crc = 0;
    decoder->stats.version = 0;
}

static void restart(hb_frame_decoder *decoder)
{
    decoder->length = 0;
    decoder->crc = HB_CRC16_INIT;
    decoder->block_remaining = 0;
    decoder->zero_pending = 0;
    decoder->state = RECEIVING;
    decoder->started = 0;
}

/* Appends one decoded byte; switches to discarding once the frame cannot fit. The checksum
 * runs two bytes behind: whichever two bytes end the frame are its CRC field, so a byte enters
 * the CRC once two more have arrived, and finish() has nothing left to compute. */
static void append(hb_frame_decoder *decoder, uint8_t byte)
{
    uint8_t length = decoder->length;
    if (length >= HB_FRAME_MAX_RAW) {
        decoder->state = DISCARDING;
        return;
    }
    if (length >= HB_FRAME_CRC_SIZE) {
        decoder->crc = hb_crc16_update(decoder->crc, decoder->buffer[length - HB_FRAME_CRC_SIZE]);
    }
    decoder->buffer[length] = byte;
    decoder->length = (uint8_t)(length + 1u);
}

static hb_frame_status finish(hb_frame_decoder *decoder)
{
    uint16_t crc;
    uint16_t received;

    if (decoder->state == DISCARDING) {
        decoder->stats.too_long++;
        return HB_FRAME_ERR_TOO_LONG;
    }
    if (decoder->block_remaining != 0u) {
        decoder->stats.cobs++;
        return HB_FRAME_ERR_COBS;
    }
    if (decoder->length < HB_FRAME_MIN_RAW) {
        decoder->stats.short_frames++;
        return HB_FRAME_ERR_SHORT;
    }
    crc = decoder->crc; /* of every byte but the last two (append) */
    received = (uint16_t)(decoder->buffer[decoder->length - 2u] |
                          ((uint16_t)decoder->buffer[decoder->length - 1u] << 8));
    if (crc != received) {
        decoder->stats.crc++;
        return HB_FRAME_ERR_CRC;
    }
    if (decoder->buffer[0] != HB_FRAME_VERSION) {
        decoder->stats.version++;
        return HB_FRAME_ERR_VERSION;
    }
    decoder->stats.frames++;
    return HB_FRAME_READY;
}

hb_frame_status hb_frame_decoder_push(hb_frame_decoder *decoder, uint8_t byte)
{
    if (byte == 0u) {
        hb_frame_status status = HB_FRAME_NONE;
        uint8_t length = decoder->length;
        if (decoder->started) {
            status = finish(decoder);
        }
        restart(decoder);
        /* A ready frame's bytes stay in the buffer until the next push. */
        if (status == HB_FRAME_READY) {
            decoder->length = length;
        }
        return status;
    }
    if (!decoder->started) {
        /* The previous push may have left a ready frame in the buffer. */
        decoder->length = 0;
        decoder->crc = HB_CRC16_INIT;
        decoder->started = 1;
    }
    if (decoder->state == DISCARDING) {
        return HB_FRAME_NONE;
    }
    if (decoder->block_remaining == 0u) {
        /* A code byte: the previous block's implied 0x00 is real, since a block follows. */
        if (decoder->zero_pending) {
            append(decoder, 0u);
        }
        decoder->block_remaining = (uint8_t)(byte - 1u);
        decoder->zero_pending = (uint8_t)(byte != 0xFFu);
    } else {
        append(decoder, byte);
        decoder->block_remaining--;
    }
    return HB_FRAME_NONE;
}

void hb_frame_decoder_frame(const hb_frame_decoder *decoder, hb_frame_header *header,
                            const uint8_t **payload, uint8_t *payload_length)
{
    header->version = decoder->buffer[0];
    header->type = decoder->buffer[1];
    header->sequence = decoder->buffer[2];
    header->flags = decoder->buffer[3];
    *payload = &decoder->buffer[HB_FRAME_HEADER_SIZE];
    *payload_length = (uint8_t)(decoder->length - HB_FRAME_MIN_RAW);
}
