/* Any byte string is either rejected with an error code, or plays exactly total_ticks ticks
 * (or faults on the safety limit), then brake_ticks brake samples, then idle; no instruction
 * budget overrun, no sanitizer report.
 *
 * Input: 4 configuration bytes, then the program.
 *   c0 & 31: brake_ticks; c1: safety_threshold; c3 bit 0: safety_ticks = c2 (else 30000);
 *   c3 bits 1..3: header fix-ups (fuzz_fixup.h). */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "fuzz_fixup.h"
#include "hb_interp.h"
#include "hb_validate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static hb_interp it;
    static uint8_t copy[FUZZ_MAX_PROGRAM];
    hb_config cfg;
    hb_header header;
    hb_err direct, load;
    uint32_t length, tick, played, limit, run = 0, brakes = 0;
    const uint8_t *program;
    if (size < 4 || size > 65536) {
        return 0;
    }
    hb_config_default(&cfg);
    cfg.brake_ticks = data[0] & 31u;
    cfg.safety_threshold = data[1];
    cfg.safety_ticks = (data[3] & 1u) ? data[2] : 30000u;
    length = (uint32_t)(size - 4);
    program = fuzz_fixup(data + 4, length, (uint8_t)((data[3] >> 1) & 7u), copy);

    direct = hb_program_validate(program, length, &cfg, &header);
    hb_interp_init(&it, &cfg);
    load = hb_interp_load(&it, program, length);
    CHECK(direct == load);
    if (load != HB_OK) {
        /* rejected: a code from the validation range, then exactly the brake */
        CHECK((load >= 1 && load <= 8) || (load >= 16 && load <= 30));
        for (tick = 0; tick < cfg.brake_ticks; tick++) {
            hb_sample s = hb_interp_step(&it);
            CHECK(s.amp == 0 && s.sharp == 0 && s.flags == HB_SAMPLE_BRAKE);
        }
        CHECK(hb_interp_status(&it).mode == HB_MODE_IDLE);
        return 0;
    }
    limit = header.total_ticks < FUZZ_MAX_TICKS ? header.total_ticks + 1u : FUZZ_MAX_TICKS;
    for (played = 0; played < limit; played++) {
        hb_sample s = hb_interp_step(&it);
        hb_status st = hb_interp_status(&it);
        CHECK(it.sh.executed <= HB_MAX_TICK_EXECUTIONS);
        if (st.mode != HB_MODE_PLAYING) {
            /* left playing: at END (tick T, no error) or on the safety limit */
            if (st.error == HB_OK) {
                CHECK(played == header.total_ticks);
            } else {
                CHECK(st.error == HB_ERR_SAFETY_LIMIT && run == cfg.safety_ticks);
                CHECK(played < header.total_ticks);
            }
            CHECK(s.amp == 0 && s.sharp == 0);
            CHECK(s.flags == (cfg.brake_ticks ? HB_SAMPLE_BRAKE : 0u));
            brakes = s.flags ? 1u : 0u;
            break;
        }
        CHECK(played < header.total_ticks);
        CHECK(s.flags == 0);
        CHECK(s.amp != 0 || s.sharp == 0);
        CHECK((header.flags & HB_FLAG_SHARP) || s.sharp == 0);
        run = s.amp >= cfg.safety_threshold ? run + 1u : 0u;
        CHECK(run <= cfg.safety_ticks);
        CHECK(st.tick == played + 1u);
    }
    if (hb_interp_status(&it).mode == HB_MODE_PLAYING) {
        CHECK(header.total_ticks >= FUZZ_MAX_TICKS);
        return 0;
    }
    for (;;) {
        hb_sample s = hb_interp_step(&it);
        if (s.flags == 0) {
            CHECK(s.amp == 0 && s.sharp == 0);
            break;
        }
        brakes++;
        CHECK(brakes <= cfg.brake_ticks);
    }
    CHECK(brakes == cfg.brake_ticks);
    CHECK(hb_interp_status(&it).mode == HB_MODE_IDLE);
    return 0;
}
