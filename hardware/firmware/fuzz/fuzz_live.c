/* Live controls and stops against an untouched twin. A valid program plays twice: `live` gets
 * scale, offset and stop events from the input, `twin` none. While `live` plays, each sample
 * must equal the twin's with the live controls applied by the 1.11 formulas; after a stop, the
 * brake or idle sequence must follow exactly.
 *
 * Input: c0 & 15: brake_ticks, c0 bits 4..6: header fix-ups (fuzz_fixup.h); c1: number of
 * events n; then n events of 3 bytes (ticks to wait, kind % 4: scale / offset / stop brake /
 * stop nobrake, argument), then the program. The safety limiter is off (safety_ticks = 2^32 - 1)
 * so the twin stays comparable. */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_fixup.h"
#include "hb_interp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hb_interp live, twin;
    static uint8_t copy[FUZZ_MAX_PROGRAM];
    hb_config cfg;
    const uint8_t *events, *program;
    size_t n, length;
    uint32_t tick, next_event = 0, brake_expected = 0;
    size_t event_index = 0;
    uint8_t scale = 255, stopped = 0;
    int8_t offset = 0;
    if (size < 2) {
        return 0;
    }
    n = data[1];
    if (size < 2 + 3 * n) {
        return 0;
    }
    events = data + 2;
    program = events + 3 * n;
    length = size - 2 - 3 * n;
    program = fuzz_fixup(program, (uint32_t)length, (uint8_t)((data[0] >> 4) & 7u), copy);
    hb_config_default(&cfg);
    cfg.brake_ticks = data[0] & 15u;
    cfg.safety_ticks = 0xFFFFFFFFu;
    hb_interp_init(&live, &cfg);
    hb_interp_init(&twin, &cfg);
    if (hb_interp_load(&twin, program, (uint32_t)length) != HB_OK) {
        return 0;
    }
    CHECK(hb_interp_load(&live, program, (uint32_t)length) == HB_OK);
    if (n > 0) {
        next_event = events[0];
    }
    for (tick = 0; tick < FUZZ_MAX_TICKS; tick++) {
        hb_sample s, t;
        while (event_index < n && next_event == tick) {
            const uint8_t *e = events + 3 * event_index;
            switch (e[1] & 3u) {
            case 0:
                scale = e[2];
                hb_interp_set_scale(&live, scale);
                break;
            case 1:
                offset = (int8_t)e[2];
                hb_interp_set_offset(&live, offset);
                break;
            case 2:
                if (hb_interp_status(&live).mode == HB_MODE_PLAYING) {
                    stopped = 1;
                    brake_expected = cfg.brake_ticks;
                }
                hb_interp_stop(&live, 1);
                break;
            default:
                hb_interp_stop(&live, 0);
                if (!stopped || brake_expected > 0) {
                    stopped = 1;
                    brake_expected = 0;
                }
                break;
            }
            event_index++;
            if (event_index < n) {
                next_event = tick + events[3 * event_index];
            }
        }
        s = hb_interp_step(&live);
        t = hb_interp_step(&twin);
        if (stopped) {
            if (brake_expected > 0) {
                CHECK(s.amp == 0 && s.sharp == 0 && s.flags == HB_SAMPLE_BRAKE);
                brake_expected--;
            } else {
                CHECK(s.amp == 0 && s.sharp == 0 && s.flags == 0);
                CHECK(hb_interp_status(&live).mode == HB_MODE_IDLE);
            }
        } else if (t.flags == 0 && hb_interp_status(&twin).mode == HB_MODE_PLAYING) {
            /* the twin's sample is the unscaled combine (scale 255 is the identity) */
            uint16_t m = (uint16_t)(scale + (scale >> 7));
            uint8_t amp = (uint8_t)((t.amp * m + 128u) >> 8);
            int sharp = (int)t.sharp + offset;
            CHECK(s.flags == 0);
            CHECK(s.amp == amp);
            if (amp == 0 || (live.p.flags & HB_FLAG_SHARP) == 0) {
                CHECK(s.sharp == 0);
            } else { /* t.amp != 0 here, so t.sharp is the combined sharpness itself */
                CHECK(s.sharp == (sharp < 0 ? 0 : sharp > 255 ? 255 : sharp));
            }
        } else {
            CHECK(s.amp == t.amp && s.sharp == t.sharp && s.flags == t.flags);
        }
        if (hb_interp_status(&live).mode == HB_MODE_IDLE && hb_interp_status(&twin).mode == HB_MODE_IDLE) {
            break;
        }
    }
    return 0;
}
