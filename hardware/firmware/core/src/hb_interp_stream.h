/* Private to the core: a streamed program's fetches (PROTOCOL.md 1.14), hb_interp_stream.c.
 *
 * A streamed program's instructions are decoded in place in the ring, with the decoder flat
 * programs use (hb_decode.h), by the interpreter's instruction loop (hb_interp.c, run), up to the
 * ring's wrap or the end of what is written (hb_stream_window); the bytes decoded since `base` go
 * into read_offset and the CRC in one pass (hb_stream_flush) before END's CRC test and at the end
 * of the step, which releases them (the writer cannot run during a step, so releasing at its end
 * is the same as after each fetch). The CRC (kept in the hb_source) is mostly taken before the
 * fetches: by a writer between steps (hb_source_crc_ahead: the device as STREAM_DATA arrives) and
 * on ticks with nothing due (hb_stream_crc_ahead). The decoder reads in order, so a window that
 * holds the whole instruction gives the result of decoding all the bytes there are; when it
 * needed a byte past the window, the instruction runs across the wrap (read on past the ring's
 * end in a mirrored tail, hb_source_ring_mirrored, or decoded again from a copy, hb_stream_more)
 * or it is one of the per-byte errors of 1.6 (a) and 1.14 (hb_decode_missing).
 * All of it is off the flat programs' path: the windows and the wrap are out of line. */
#ifndef HB_INTERP_STREAM_H
#define HB_INTERP_STREAM_H

#include <stdint.h>

#include "hb_error.h"
#include "hb_port.h"
#include "hb_interp.h"

/* The bytes from body offset `at` (written) that are written, in the body and before the ring's
 * wrap: returns the first, *lim is past the last. */
const uint8_t *hb_stream_window(hb_interp_shared *sh, hb_interp_play *it, uint32_t at, const uint8_t **lim);

/* The decoder needed a byte past the window [*p, *lim), where *p is the byte at read_offset.
 * If *lim is the ring's end and more bytes are written: at the wrap, *p, *lim become the window
 * from the storage's start; else the instruction's bytes (up to HB_MAX_INSTR_BYTES of them) run
 * across the wrap and, unless `copied` already, are copied into buf, *p, *lim set around them,
 * and it->end to the end of the window after the wrap (the loop goes on there). Else returns the
 * error of 1.6 (a) and 1.14. */
HB_MUST_CHECK hb_err hb_stream_more(hb_interp_shared *sh, hb_interp_play *it, uint8_t copied, uint8_t *buf,
                                    const uint8_t **p, const uint8_t **lim);

/* The instructions decoded since `from` (the byte at read_offset) up to `to`: into read_offset,
 * and into the CRC as far as hb_stream_crc_ahead has not taken them already. */
void hb_stream_flush(hb_interp_shared *sh, const uint8_t *from, const uint8_t *to);

/* On a tick with nothing due: the CRC of some of the bytes written after those it has taken. */
void hb_stream_crc_ahead(hb_interp_shared *sh);

#endif
