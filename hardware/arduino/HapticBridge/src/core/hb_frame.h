/* Wire frames (firmware-protocol/PROTOCOL.md, section 2.1).
 *
 * On the wire: COBS(header || payload || crc16_le) followed by one 0x00 delimiter.
 *   header  4 bytes: version (1), message type, sequence number, flags
 *   payload 0..HB_FRAME_MAX_PAYLOAD bytes, defined per message type
 *   crc16   CRC-16/CCITT-FALSE over header and payload, least significant byte first
 *
 * The decoder is a byte-at-a-time state machine over a fixed buffer: no malloc, no recursion,
 * constant work per byte (the checksum included: it is computed as bytes arrive), so it can run
 * in a UART ISR or in a main loop draining an RX ring. */
#ifndef HB_FRAME_H
#define HB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "hb_cobs.h"

/* Plain literals, so that Swift can import them; hb_frame.c checks the sums at compile time. */
#define HB_FRAME_VERSION 1u
#define HB_FRAME_HEADER_SIZE 4u
#define HB_FRAME_CRC_SIZE 2u
#define HB_FRAME_MAX_PAYLOAD 128u
/* header + payload + crc before stuffing: 6..134 bytes */
#define HB_FRAME_MIN_RAW 6u   /* HEADER_SIZE + CRC_SIZE */
#define HB_FRAME_MAX_RAW 134u /* HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE */
/* stuffed frame plus the 0x00 delimiter */
#define HB_FRAME_MAX_WIRE 136u /* HB_COBS_MAX_ENCODED(MAX_RAW) + 1 */

typedef struct {
    uint8_t version;
    uint8_t type;
    uint8_t sequence;
    uint8_t flags;
} hb_frame_header;

/* Encodes one frame into `out` including the trailing 0x00. Returns the wire length
 * (HB_FRAME_MIN_RAW + 2 .. HB_FRAME_MAX_WIRE), or 0 when the payload is longer than
 * HB_FRAME_MAX_PAYLOAD or `capacity` is too small (HB_FRAME_MAX_WIRE always suffices).
 * `payload` may be NULL when `payload_length` is 0. */
size_t hb_frame_encode(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                       uint8_t *out, size_t capacity);
/* The same, calling `yield(ctx)` (if not NULL) between pieces of the checksum, 16 bytes each:
 * for a long frame sent from where a board may run its ticks (hb_device's INFO). */
size_t hb_frame_encode_yielding(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                                uint8_t *out, size_t capacity, void (*yield)(void *ctx), void *ctx);
/* The same through the general incremental COBS encoder only (hb_frame_encode takes a faster
 * in-place path for frames of at most 253 raw bytes): for tests that compare the two. */
size_t hb_frame_encode_general(const hb_frame_header *header, const uint8_t *payload, size_t payload_length,
                               uint8_t *out, size_t capacity);

typedef enum {
    HB_FRAME_NONE = 0,          /* byte consumed, no frame ended */
    HB_FRAME_READY = 1,         /* a valid frame ended; see hb_frame_decoder_frame */
    HB_FRAME_ERR_TOO_LONG = -1, /* more than HB_FRAME_MAX_RAW decoded bytes */
    HB_FRAME_ERR_COBS = -2,     /* the delimiter arrived inside a COBS block */
    HB_FRAME_ERR_SHORT = -3,    /* fewer than HB_FRAME_MIN_RAW decoded bytes */
    HB_FRAME_ERR_CRC = -4,      /* checksum mismatch */
    HB_FRAME_ERR_VERSION = -5   /* checksum good, version byte is not HB_FRAME_VERSION */
} hb_frame_status;

/* Per-outcome counters; each wraps modulo 2^16. */
typedef struct {
    uint16_t frames;
    uint16_t too_long;
    uint16_t cobs;
    uint16_t short_frames;
    uint16_t crc;
    uint16_t version;
} hb_frame_stats;

typedef struct {
    uint8_t buffer[HB_FRAME_MAX_RAW]; /* decoded bytes of the frame being received */
    uint16_t crc;                     /* CRC-16 of buffer[0 .. length - 2), updated per byte */
    uint8_t length;                   /* decoded bytes in buffer */
    uint8_t block_remaining;          /* data bytes left in the current COBS block; 0 = next is a code byte */
    uint8_t zero_pending;             /* the current block implies a 0x00 if another block follows */
    uint8_t state;                    /* internal: receiving, discarding (too long) */
    uint8_t started;                  /* any byte since the last delimiter */
    hb_frame_stats stats;
} hb_frame_decoder;

void hb_frame_decoder_init(hb_frame_decoder *decoder);

/* Feeds one received byte. On HB_FRAME_READY the frame stays readable through
 * hb_frame_decoder_frame until the next call to hb_frame_decoder_push. Empty frames
 * (0x00 right after 0x00) are ignored silently: a sender may lead with 0x00 to flush
 * a receiver's partial garbage. */
hb_frame_status hb_frame_decoder_push(hb_frame_decoder *decoder, uint8_t byte);

/* The frame completed by the last push that returned HB_FRAME_READY. */
void hb_frame_decoder_frame(const hb_frame_decoder *decoder, hb_frame_header *header, const uint8_t **payload,
                            uint8_t *payload_length);

#endif
