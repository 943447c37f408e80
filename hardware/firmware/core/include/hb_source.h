/* Where the interpreter reads a program body from (firmware-protocol/PROTOCOL.md, 1.14):
 * a flat buffer holding the whole body, or a ring buffer a transport fills while the program
 * plays. Offsets are body offsets (0 = first body byte) for both kinds.
 *
 * Ring rules: capacity is a power of two; the writer may be at most `capacity` bytes ahead of
 * the reader's released offset. On a target where the writer runs in an interrupt, call
 * hb_source_write and the interpreter's step with that interrupt masked, or from one context:
 * the 32-bit counters are not atomic on an 8-bit CPU. */
#ifndef HB_SOURCE_H
#define HB_SOURCE_H

#include <stdint.h>

typedef struct hb_source {
    const uint8_t *data; /* flat: the body; ring: the ring storage */
    uint8_t *ring;       /* ring storage for writing; NULL for a flat source */
    uint32_t capacity;   /* flat: body length; ring: storage size (power of two) */
    uint32_t written;    /* body bytes available so far (flat: all of them) */
    uint32_t released;   /* ring: the reader is done with every byte below this offset */
    uint32_t crc_at;     /* `crc` covers the body bytes below this offset */
    uint16_t crc;        /* CRC-16 of the body below crc_at: a streamed program's (1.14) */
    uint8_t tail;        /* ring: storage bytes past `capacity` that mirror its first ones */
} hb_source;

/* A ring's tail long enough that any instruction (HB_MAX_INSTR_BYTES) starting in the ring can be
 * read in place across the wrap (hb_source_ring_mirrored). */
#define HB_SOURCE_TAIL 9u

/* A flat source over `length` body bytes, all available. */
void hb_source_flat(hb_source *src, const uint8_t *body, uint32_t length);

/* An empty ring over `storage`. Returns 0 (and leaves *src unusable) if `capacity` is not a
 * power of two, else 1. */
uint8_t hb_source_ring(hb_source *src, uint8_t *storage, uint32_t capacity);

/* The same over `capacity` + `tail` bytes of storage: the last `tail` bytes mirror the first ones,
 * so that the interpreter reads any instruction across the wrap in place (`tail` 0, or at least
 * HB_SOURCE_TAIL; the writer pays a copy of `tail` bytes after a write that reaches them). */
uint8_t hb_source_ring_mirrored(hb_source *src, uint8_t *storage, uint32_t capacity, uint8_t tail);

/* Ring: how many bytes a writer may add now. Flat: 0. */
uint32_t hb_source_space(const hb_source *src);

/* Ring: appends up to `length` bytes (no more than the space); returns how many it took. */
uint32_t hb_source_write(hb_source *src, const uint8_t *bytes, uint32_t length);

/* Reads the byte at body offset `offset` into *out. Returns 1 if it has been written, else 0. */
uint8_t hb_source_byte(const hb_source *src, uint32_t offset, uint8_t *out);

/* The bytes from body offset `offset` that are written and below `limit`, at most `want` of them,
 * as one contiguous run: *bytes points into the source when they are contiguous there, else into
 * `buf` (`want` bytes), where they are copied across a ring's wrap. Returns how many there are. */
uint8_t hb_source_peek(const hb_source *src, uint32_t offset, uint32_t limit, uint8_t want, uint8_t *buf,
                       const uint8_t **bytes);

/* The reader will not read below `offset` again: a ring may overwrite those bytes. */
void hb_source_release(hb_source *src, uint32_t offset);

/* Takes the CRC (crc, crc_at) of up to `max` more bytes written below `limit` (the body's length),
 * up to a ring's wrap; returns 1 if written bytes below `limit` remain after them. The streamed
 * interpreter takes the CRC of what it reads that is not taken yet; a writer may call this between
 * steps so that a step finds the CRC of what it reads done. Bytes are taken once, in order, and
 * never past what the reader has released, so none is overwritten first. A ring serves one
 * streamed load: the CRC starts with hb_source_ring. */
uint8_t hb_source_crc_ahead(hb_source *src, uint32_t limit, uint8_t max);

#endif
