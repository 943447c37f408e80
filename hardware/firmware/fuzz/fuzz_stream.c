/* Streamed playback against the flat path. Any bytes, fed into a ring in pseudo-random chunks,
 * play without sanitizer reports, within total_ticks, and end idle. When the whole body is in the
 * ring from the start, a streamed program behaves exactly like the same program loaded flat:
 * the flat validator accepts it (with any loop-free body) iff the stream ends with no error, and
 * both give the same samples.
 *
 * Input: c0: ring size 2^(4 + c0 % 7) bytes; c1: feeding (0: all at once, else a PRNG seed for
 * 0..7 bytes per tick); c2 & 15: brake_ticks, c2 bits 4..6: header fix-ups (fuzz_fixup.h); then
 * the program (header + body). */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_fixup.h"
#include "hb_interp.h"
#include "hb_validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t ring[1024];
static uint8_t copy[FUZZ_MAX_PROGRAM];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hb_interp streamed, flat;
    hb_config cfg;
    hb_source src;
    hb_header header;
    hb_err load, flat_load;
    const uint8_t *program, *body;
    uint32_t length, body_have, fed = 0, capacity, tick, seed;
    uint8_t all_at_once, has_loop = 0, complete = 0;
    if (size < 3 + HB_HEADER_SIZE || size > 4096) {
        return 0;
    }
    hb_config_default(&cfg);
    cfg.max_body = 0xFFFFFFFFu; /* streams are not bounded by a buffer */
    cfg.brake_ticks = data[2] & 15u;
    capacity = 1u << (4u + data[0] % 7u);
    all_at_once = data[1] == 0;
    seed = data[1];
    length = (uint32_t)(size - 3);
    program = fuzz_fixup(data + 3, length, (uint8_t)((data[2] >> 4) & 7u), copy);
    body = program + HB_HEADER_SIZE;
    body_have = length - HB_HEADER_SIZE;

    CHECK(hb_source_ring(&src, ring, capacity));
    hb_interp_init(&streamed, &cfg);
    load = hb_interp_load_stream(&streamed, program, &src);
    if (load != HB_OK) {
        CHECK(load >= 1 && load <= 5);
        return 0;
    }
    header = streamed.sh.header;
    if (header.body_length < body_have) {
        body_have = header.body_length; /* bytes past the body are never fed */
    }
    if (all_at_once) {
        fed = hb_source_write(&src, body, body_have);
        /* comparable with the flat path: the exact program, all of it in the ring at tick 0 */
        complete = fed == header.body_length && length == HB_HEADER_SIZE + header.body_length;
    }
    /* the flat twin: the same bytes, validated whole */
    hb_interp_init(&flat, &cfg);
    flat_load = hb_interp_load(&flat, program, length);

    for (tick = 0; tick < FUZZ_MAX_TICKS; tick++) {
        hb_sample s, f;
        hb_status st;
        if (fed < body_have) { /* all at once: as much as fits; else 0..7 bytes */
            uint32_t chunk = body_have - fed;
            if (!all_at_once) {
                seed = seed * 1103515245u + 12345u;
                if (chunk > ((seed >> 16) & 7u)) chunk = (seed >> 16) & 7u;
            }
            fed += hb_source_write(&src, body + fed, chunk);
        }
        s = hb_interp_step(&streamed);
        f = hb_interp_step(&flat);
        st = hb_interp_status(&streamed);
        CHECK(streamed.sh.executed <= HB_MAX_TICK_EXECUTIONS);
        CHECK(st.tick <= header.total_ticks);
        if (st.error == HB_ERR_LOOP_IN_STREAM) {
            has_loop = 1;
        }
        if (complete && !has_loop && flat_load == HB_OK) {
            CHECK(s.amp == f.amp && s.sharp == f.sharp && s.flags == f.flags);
        }
        if (st.mode == HB_MODE_IDLE) {
            break;
        }
    }
    if (hb_interp_status(&streamed).mode == HB_MODE_IDLE && complete) {
        hb_err err = hb_interp_status(&streamed).error;
        /* same verdict as the validator, apart from loops (invalid only in streams) */
        if (!has_loop && err != HB_ERR_UNDERRUN && err != HB_ERR_SAFETY_LIMIT) {
            CHECK((err == HB_OK) == (flat_load == HB_OK));
        }
        CHECK(err != HB_ERR_UNDERRUN);
    }
    return 0;
}
