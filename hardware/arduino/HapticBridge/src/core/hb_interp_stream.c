/* A streamed program's fetches (1.14): the windows into the ring that the interpreter's loop
 * decodes in place, the wrap, and the body's CRC (hb_interp_stream.h explains how they fit). */
#include "hb_interp_stream.h"

#include <stddef.h>

#include "hb_crc16.h"
#include "hb_decode.h"
#include "hb_port.h"

/* Pointer-width sizes: the storage is addressable, so its size and offsets into it fit. */
HB_NOINLINE const uint8_t *hb_stream_window(const hb_interp *it, uint32_t at, const uint8_t **lim)
{
    const hb_source *src = it->src;
    uint32_t avail = src->written < it->header.body_length ? src->written : it->header.body_length;
    const uint8_t *p = src->data;
    size_t room = (size_t)-1;
    avail -= at;
    if (src->ring == NULL) {
        p += at;
    } else {
        size_t index = (size_t)at & (size_t)(src->capacity - 1u);
        p += index;
        room = (size_t)src->capacity - index;
    }
    if (avail < room) {
        room = (size_t)avail;
    }
    *lim = p + room;
    return p;
}

/* Across the ring's wrap, or the error (hb_interp_stream.h). */
HB_NOINLINE hb_err hb_stream_more(hb_interp *it, uint8_t copied, uint8_t *buf, const uint8_t **p,
                                  const uint8_t **lim)
{
    const hb_source *src = it->src;
    uint32_t at = it->read_offset;
    uint32_t avail = (src->written < it->header.body_length ? src->written : it->header.body_length) - at;
    uint8_t count;
    const uint8_t *from = *p;
    size_t room = (size_t)(*lim - from);
    /* avail <= capacity, as the writer stays within capacity of the release; the test keeps the
     * copies below inside the storage even if a caller's releases break that */
    if (avail > src->capacity) {
        avail = src->capacity;
    }
    count = avail < HB_MAX_INSTR_BYTES ? (uint8_t)avail : HB_MAX_INSTR_BYTES;
    if (!copied && src->ring != NULL && *lim == src->data + src->capacity && avail > room) {
        if (room == 0) {
            *p = src->data;
            *lim = src->data + (size_t)avail;
            return HB_OK;
        }
        if (room < count) {
            uint8_t i = 0;
            do {
                buf[i++] = *from++;
            } while (i < (uint8_t)room);
            from = src->data;
            do {
                buf[i++] = *from++;
            } while (i < count);
            *p = buf;
            *lim = buf + count;
            it->end = src->data + (size_t)(avail - room);
            return HB_OK;
        }
    }
    return hb_decode_missing(HB_ERR_TRUNCATED, at, count, it->header.body_length);
}

/* The CRC still to take is that of the last bytes of the run (hb_stream_crc_ahead took the
 * others). The interpreter's loop releases once, at the end of the step: releases only ever move
 * up, so that is the same as after each fetch. */
void hb_stream_flush(hb_interp *it, const uint8_t *from, const uint8_t *to)
{
    size_t n = (size_t)(to - from);
    if (n != 0) {
        uint32_t at = it->read_offset + (uint32_t)n;
        if (at > it->crc_at) {
            size_t behind = (size_t)(at - it->crc_at);
            it->crc = hb_crc16(it->crc, to - behind, behind);
            it->crc_at = at;
        }
        it->read_offset = at;
    }
}

/* On a tick with nothing due, the CRC of up to CRC_AHEAD bytes written after those it has
 * taken, up to the ring's wrap: they are read (and released, then overwritten) later, so a busy
 * tick then finds their CRC done. The CRC covers the same body bytes in the same order, and is
 * complete when END is fetched, where it is tested (1.14). */
#define CRC_AHEAD 16u
HB_NOINLINE void hb_stream_crc_ahead(hb_interp *it)
{
    const uint8_t *lim, *p;
    if (it->crc_at >= it->src->written) { /* nothing new (a shortcut: the window says so too) */
        return;
    }
    p = hb_stream_window(it, it->crc_at, &lim);
    uint8_t n = lim - p < (ptrdiff_t)CRC_AHEAD ? (uint8_t)(lim - p) : CRC_AHEAD;
    if (n != 0) {
        it->crc = hb_crc16(it->crc, p, n);
        it->crc_at += n;
    }
}
