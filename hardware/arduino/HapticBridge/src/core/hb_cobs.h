/* Consistent Overhead Byte Stuffing (Cheshire & Baker, 1999).
 *
 * Encoded data contains no 0x00 byte, so 0x00 can delimit frames on the wire
 * (firmware-protocol/PROTOCOL.md, section 2.1). Each block is a code byte c (1..255)
 * followed by c - 1 data bytes; a block with c < 255 stands for its data plus one 0x00,
 * except the last block, whose implied 0x00 is dropped. The encoder emits the shortest
 * form: a final full block (code 0xFF) is not followed by an empty 0x01 block. Decoders
 * accept both forms. */
#ifndef HB_COBS_H
#define HB_COBS_H

#include <stddef.h>
#include <stdint.h>

/* Largest encoding of n bytes: one code byte per started run of 254 bytes, at least one. */
#define HB_COBS_MAX_ENCODED(n) ((n) + ((n) == 0u ? 1u : ((n) + 253u) / 254u))

typedef enum {
    HB_COBS_OK = 0,
    HB_COBS_ERR_SPACE = -1,    /* output buffer too small */
    HB_COBS_ERR_ZERO = -2,     /* a 0x00 byte inside encoded data */
    HB_COBS_ERR_TRUNCATED = -3 /* a code byte promises more bytes than follow */
} hb_cobs_status;

/* Incremental encoder: bytes go straight into the output buffer, so a frame can be encoded
 * from its parts without a second buffer (no stack copy on a 2 KB part). */
typedef struct {
    uint8_t *out;
    size_t capacity;
    size_t length;      /* bytes written so far, including reserved code slots */
    size_t code_index;  /* where the open block's code byte goes */
    uint8_t code;       /* open block's code so far: 1 + its data bytes */
    uint8_t open;       /* a block is open */
    uint8_t need_block; /* input ended here would still need a (possibly empty) block */
    uint8_t failed;     /* ran out of space */
} hb_cobs_encoder;

void hb_cobs_encoder_begin(hb_cobs_encoder *encoder, uint8_t *out, size_t capacity);
void hb_cobs_encoder_push(hb_cobs_encoder *encoder, uint8_t byte);
/* Closes the last block. HB_COBS_OK and *out_length, or HB_COBS_ERR_SPACE. */
hb_cobs_status hb_cobs_encoder_end(hb_cobs_encoder *encoder, size_t *out_length);

/* Encodes `length` bytes from `in` into `out` (capacity `capacity`, must not overlap `in`).
 * On HB_COBS_OK, *out_length is the encoded length (no delimiter is written). */
hb_cobs_status hb_cobs_encode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity,
                              size_t *out_length);

/* Decodes `length` encoded bytes (no delimiter). `out` may equal `in`: decoding never writes
 * ahead of what it has read. On HB_COBS_OK, *out_length is the decoded length. */
hb_cobs_status hb_cobs_decode(const uint8_t *in, size_t length, uint8_t *out, size_t capacity,
                              size_t *out_length);

#endif
