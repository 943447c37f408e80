/* A streamed program's fetches (1.14): the windows into the ring that the interpreter's loop
 * decodes in place, the wrap, and the body's CRC (hb_interp_stream.h explains how they fit). */
#include "hb_interp_stream.h"

#include <stddef.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_decode.h"
#include "hb_port.h"

/* Pointer-width sizes: the storage is addressable, so its size and offsets into it fit. */
HB_NOINLINE const uint8_t *hb_stream_window(hb_interp_shared *sh, hb_interp_play *it, uint32_t at,
                                            const uint8_t **lim)
{
    const hb_source *src = sh->src;
    uint32_t avail = src->written < sh->header.body_length ? src->written : sh->header.body_length;
    const uint8_t *p = src->data;
    size_t room = (size_t)-1;
    avail -= at;
    if (src->ring == NULL) {
        p += at;
    } else {
        size_t index = (size_t)at & (size_t)(src->capacity - 1u);
        p += index;
        room = (size_t)src->capacity - index + src->tail; /* the mirrored tail: across the wrap */
        if (src->tail != 0) {                             /* where the window goes on after it */
            it->end = p + (avail < src->capacity ? (size_t)avail : (size_t)src->capacity);
        }
    }
    if (avail < room) {
        room = (size_t)avail;
    }
    *lim = p + room;
    return p;
}

/* Across the ring's wrap, or the error (hb_interp_stream.h). Few registers and two memcpy: it runs
 * in the interpreter's busiest ticks (a wrap every ring's worth of a stream). */
HB_NOINLINE hb_err hb_stream_more(hb_interp_shared *sh, hb_interp_play *it, uint8_t copied, uint8_t *buf,
                                  const uint8_t **p, const uint8_t **lim)
{
    const hb_source *src = sh->src;
    uint32_t avail =
        (src->written < sh->header.body_length ? src->written : sh->header.body_length) - sh->read_offset;
    const uint8_t *from = *p;
    const uint8_t *ring_end = src->data + (size_t)src->capacity;
    uint8_t count;
    /* avail <= capacity, as the writer stays within capacity of the release; the test keeps the
     * copies below inside the storage even if a caller's releases break that */
    if (avail > src->capacity) {
        avail = src->capacity;
    }
    count = avail < HB_MAX_INSTR_BYTES ? (uint8_t)avail : HB_MAX_INSTR_BYTES;
    /* a mirrored ring (tail) reads every instruction in place: run goes on past the wrap itself */
    if (src->tail == 0 && !copied && src->ring != NULL && *lim == ring_end
        && avail > (uint32_t)(ring_end - from)) {
        size_t room = (size_t)(ring_end - from);
        if (room == 0) {
            *p = src->data;
            *lim = src->data + (size_t)avail;
            return HB_OK;
        }
        if (room < count) {
            memcpy(buf, from, room);
            memcpy(buf + room, src->data, (size_t)(count - room));
            *p = buf;
            *lim = buf + count;
            it->end = src->data + (size_t)(avail - room);
            return HB_OK;
        }
    }
    return hb_decode_missing(HB_ERR_TRUNCATED, sh->read_offset, count, sh->header.body_length);
}

/* The CRC still to take is that of the last bytes of the run (hb_stream_crc_ahead took the
 * others). The interpreter's loop releases once, at the end of the step: releases only ever move
 * up, so that is the same as after each fetch. */
void hb_stream_flush(hb_interp_shared *sh, const uint8_t *from, const uint8_t *to)
{
    size_t n = (size_t)(to - from);
    if (n != 0) {
        uint32_t at = sh->read_offset + (uint32_t)n;
        hb_source *src = sh->src;
        if (at > src->crc_at) {
            size_t behind = (size_t)(at - src->crc_at);
            src->crc = hb_crc16(src->crc, to - behind, behind);
            src->crc_at = at;
        }
        sh->read_offset = at;
    }
}

/* On a tick with nothing due, the CRC of up to CRC_AHEAD bytes written after those it has
 * taken, up to the ring's wrap: they are read (and released, then overwritten) later, so a busy
 * tick then finds their CRC done. The CRC covers the same body bytes in the same order, and is
 * complete when END is fetched, where it is tested (1.14). A device also takes it between steps
 * (hb_device_stream.c), so that it is usually done already. */
#define CRC_AHEAD 16u
HB_NOINLINE void hb_stream_crc_ahead(hb_interp_shared *sh)
{
    (void)hb_source_crc_ahead(sh->src, sh->header.body_length, CRC_AHEAD);
}
