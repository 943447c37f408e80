#include "hb_frame.h"

#include <stddef.h>

#include "hb_crc16.h"

enum { RECEIVING = 0, DISCARDING = 1 };

/* C99 has no static_assert: a negative array size fails the build if a literal in hb_frame.h drifts. */
#define FRAME_ASSERT(name, holds) typedef char name[(holds) ? 1 : -1]
FRAME_ASSERT(hb_frame_min_raw_check, HB_FRAME_MIN_RAW == HB_FRAME_HEADER_SIZE + HB_FRAME_CRC_SIZE);
FRAME_ASSERT(hb_frame_max_raw_check,
             HB_FRAME_MAX_RAW == HB_FRAME_HEADER_SIZE + HB_FRAME_MAX_PAYLOAD + HB_FRAME_CRC_SIZE);
FRAME_ASSERT(hb_frame_max_wire_check, HB_FRAME_MAX_WIRE == HB_COBS_MAX_ENCODED(HB_FRAME_MAX_RAW) + 1u);
FRAME_ASSERT(hb_frame_length_fits_u8, HB_FRAME_MAX_RAW <= 255u);

/* The general path: header, payload and checksum pushed through the incremental COBS encoder
 * straight into `out` (no raw copy on the stack). */
static size_t encode_stuffed(const uint8_t *head, const uint8_t *payload, size_t payload_length, uint8_t *out,
                             size_t capacity)
{
    hb_cobs_encoder encoder;
    uint16_t crc = HB_CRC16_INIT;
    size_t encoded_length = 0;
    size_t i;
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

/* A frame has at most HB_FRAME_MAX_RAW (134) raw bytes, so it cannot contain a run of 254
 * non-zero bytes and its COBS form is the raw bytes shifted by one with each 0x00 (and the
 * leading code slot) replaced by the distance to the next 0x00 or to the end: the raw frame is
 * written at out + 1 and stuffed in place, a few cycles a byte instead of an encoder call per
 * byte. Same bytes as the general path (tests/test_frames.c compares them on every payload
 * length). */
typedef char hb_frame_no_full_cobs_block[(HB_FRAME_MAX_RAW <= 253u) ? 1 : -1];

/* The raw frame's checksum in pieces of this many bytes when the caller yields between them
 * (about 500 cycles each on the ATmega328P). */
#define CRC_PIECE 16u

size_t hb_frame_encode_yielding(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                                uint8_t *out, size_t capacity, void (*yield)(void *ctx), void *ctx)
{
    size_t raw = HB_FRAME_HEADER_SIZE + payload_length + HB_FRAME_CRC_SIZE;
    uint8_t *r = out + 1;
    uint16_t crc = HB_CRC16_INIT;
    uint8_t n, i, done, last = 0;

    if (payload_length > HB_FRAME_MAX_PAYLOAD || capacity < raw + 2u) { /* code, raw bytes, 0x00 */
        return 0;
    }
    n = (uint8_t)raw;
    r[0] = header->version;
    r[1] = header->type;
    r[2] = header->sequence;
    r[3] = header->flags;
    for (i = 0; i < (uint8_t)payload_length; i++) {
        r[HB_FRAME_HEADER_SIZE + i] = payload[i];
    }
    /* over the contiguous raw bytes: the update runs inlined in hb_crc16's loop */
    if (yield == NULL) {
        crc = hb_crc16(crc, r, (size_t)(n - HB_FRAME_CRC_SIZE));
    } else {
        for (done = 0; done < (uint8_t)(n - HB_FRAME_CRC_SIZE); done = (uint8_t)(done + CRC_PIECE)) {
            uint8_t left = (uint8_t)(n - HB_FRAME_CRC_SIZE - done);
            crc = hb_crc16(crc, r + done, left < CRC_PIECE ? left : CRC_PIECE);
            yield(ctx);
        }
    }
    r[n - 2u] = (uint8_t)(crc & 0xFFu);
    r[n - 1u] = (uint8_t)(crc >> 8);
    for (i = 1; i <= n; i++) {
        if (out[i] == 0u) {
            out[last] = (uint8_t)(i - last);
            last = i;
        }
    }
    out[last] = (uint8_t)(n + 1u - last);
    out[n + 1u] = 0u;
    return raw + 2u;
}

size_t hb_frame_encode(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                       uint8_t *out, size_t capacity)
{
    return hb_frame_encode_yielding(header, payload, payload_length, out, capacity, NULL, NULL);
}

/* The general path on its own, for tests: same bytes as hb_frame_encode for every frame. */
size_t hb_frame_encode_general(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                               uint8_t *out, size_t capacity)
{
    uint8_t head[HB_FRAME_HEADER_SIZE];
    if (payload_length > HB_FRAME_MAX_PAYLOAD || capacity == 0u) {
        return 0;
    }
    head[0] = header->version;
    head[1] = header->type;
    head[2] = header->sequence;
    head[3] = header->flags;
    return encode_stuffed(head, payload, payload_length, out, capacity);
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

void hb_frame_decoder_init(hb_frame_decoder *decoder)
{
    restart(decoder);
    decoder->stats.frames = 0;
    decoder->stats.too_long = 0;
    decoder->stats.cobs = 0;
    decoder->stats.short_frames = 0;
    decoder->stats.crc = 0;
    decoder->stats.version = 0;
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

/* hb_frame_stats' counters in the order of the statuses they count (READY, then -1 .. -5), so
 * that finish() has one increment for all of them (-54 bytes of AVR flash against six). */
FRAME_ASSERT(hb_frame_stats_order,
             offsetof(hb_frame_stats, frames) == 0u && offsetof(hb_frame_stats, too_long) == 2u
                 && offsetof(hb_frame_stats, cobs) == 4u && offsetof(hb_frame_stats, short_frames) == 6u
                 && offsetof(hb_frame_stats, crc) == 8u && offsetof(hb_frame_stats, version) == 10u
                 && HB_FRAME_ERR_VERSION == -5);

static hb_frame_status finish(hb_frame_decoder *decoder)
{
    hb_frame_status status = HB_FRAME_READY;
    uint8_t length = decoder->length;
    uint16_t *counter;
    if (decoder->state == DISCARDING) {
        status = HB_FRAME_ERR_TOO_LONG;
    } else if (decoder->block_remaining != 0u) {
        status = HB_FRAME_ERR_COBS;
    } else if (length < HB_FRAME_MIN_RAW) {
        status = HB_FRAME_ERR_SHORT;
    } else if (decoder->crc /* of every byte but the last two (append) */
               != (uint16_t)(decoder->buffer[length - 2u] | ((uint16_t)decoder->buffer[length - 1u] << 8))) {
        status = HB_FRAME_ERR_CRC;
    } else if (decoder->buffer[0] != HB_FRAME_VERSION) {
        status = HB_FRAME_ERR_VERSION;
    }
    counter = (uint16_t *)(void *)((uint8_t *)&decoder->stats
                                   + (status == HB_FRAME_READY ? 0u : 2u * (unsigned)-(int)status));
    (*counter)++;
    return status;
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

void hb_frame_decoder_frame(const hb_frame_decoder *decoder, hb_frame_header *header, const uint8_t **payload,
                            uint8_t *payload_length)
{
    header->version = decoder->buffer[0];
    header->type = decoder->buffer[1];
    header->sequence = decoder->buffer[2];
    header->flags = decoder->buffer[3];
    *payload = &decoder->buffer[HB_FRAME_HEADER_SIZE];
    *payload_length = (uint8_t)(decoder->length - HB_FRAME_MIN_RAW);
}
