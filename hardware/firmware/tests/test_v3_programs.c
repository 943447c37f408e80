/* The 3.0 device's programs (firmware-protocol/vectors/v3/programs.txt, and the 2.0 program vectors
 * of vectors/programs made format 3) through hb_device3's COMMIT: the verdict, T and the peak (3.1);
 * each valid one alone at 1x equal to 2.0 (3.6); 3.5's seek exact against the play from 0 and within
 * its bound; and DIAG per channel.
 *
 * Usage: test_v3_programs <firmware-protocol/vectors/v3>. Exit status 0 when nothing failed.
 * Host-only test code: stdio and dirent, no malloc, like the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_device3.h"
#include "hb_frame.h"

#include "vector_files.h"

#define LINE_SIZE 8192

static vector_session session;

static void tx(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    vector_session_sent(&session, bytes, length);
}

static hb_device3 prog_dev;
static hb_device3_config prog_cfg;
static uint8_t prog_memory[2 * 4096];

/* Sends one frame to prog_dev; returns the code of the ACK (0) or NACK it answers, and its value. */
static int command(uint8_t type, uint8_t seq, const uint8_t *payload, size_t length, uint32_t *value)
{
    hb_frame_header h = {1, 0, 0, 0};
    hb_frame_decoder rx;
    uint8_t wire[HB_FRAME_MAX_WIRE];
    size_t n, i;
    int code = -1;
    h.type = type;
    h.sequence = seq;
    n = hb_frame_encode(&h, payload, length, wire, sizeof wire);
    session.got_used = 0;
    hb_device3_receive(&prog_dev, wire, (uint16_t)n);
    hb_frame_decoder_init(&rx);
    for (i = 0; i < session.got_used; i++) {
        if (hb_frame_decoder_push(&rx, session.got_bytes[i]) == HB_FRAME_READY) {
            hb_frame_header got;
            const uint8_t *p;
            uint8_t len;
            hb_frame_decoder_frame(&rx, &got, &p, &len);
            if (got.type == HB_MSG_ACK && len >= HB_LEN_ACK) {
                code = 0;
                *value = (uint32_t)p[1] | (uint32_t)p[2] << 8 | (uint32_t)p[3] << 16 | (uint32_t)p[4] << 24;
            } else if (got.type == HB_MSG_NACK && len >= HB_LEN_NACK) {
                code = p[1];
                *value = (uint32_t)p[2] | (uint32_t)p[3] << 8 | (uint32_t)p[4] << 16 | (uint32_t)p[5] << 24;
            }
        }
    }
    return code;
}

/* UPLOAD in pieces and COMMIT to slot 0: the COMMIT's code and value. */
static int commit(const uint8_t *program, uint32_t length, uint32_t *value)
{
    static uint8_t seq;
    uint8_t payload[128];
    uint32_t offset = 0;
    uint16_t crc = hb_crc16(HB_CRC16_INIT, program, length);
    while (offset < length) {
        uint32_t piece = length - offset < 120u ? length - offset : 120u;
        payload[0] = 0;
        payload[1] = (uint8_t)offset;
        payload[2] = (uint8_t)(offset >> 8);
        payload[3] = payload[4] = 0;
        memcpy(payload + 5, program + offset, piece);
        if (command(HB_MSG_UPLOAD, ++seq, payload, 5u + piece, value) != 0) return -2;
        offset += piece;
    }
    payload[0] = 0;
    payload[1] = (uint8_t)length;
    payload[2] = (uint8_t)(length >> 8);
    payload[3] = payload[4] = 0;
    payload[5] = (uint8_t)crc;
    payload[6] = (uint8_t)(crc >> 8);
    return command(HB_MSG_COMMIT, ++seq, payload, 7, value);
}

/* The players' shared interpreter part, as a device's (hb_player_shared_init). */
static hb_interp_shared prog_sh;

/* A player of the committed slot 0 from program tick `from`, at 1x, once. */
static void reserve_from(hb_player *pl, uint32_t from)
{
    hb_play_params pp;
    hb_header header;
    hb_err err;
    memset(&pp, 0, sizeof pp);
    pp.from = from;
    pp.loops = 1;
    pp.rate = HB_RATE_ONE;
    pp.scale = 255;
    err = hb_header_parse_format(prog_memory, HB_HEADER_SIZE, &prog_cfg.base.core, HB_FORMAT_VERSION_3,
                                 &header);
    (void)err;
    hb_player_shared_init(&prog_sh, &prog_cfg.base.core);
    hb_player_reserve(pl, &prog_sh, &pp, 0, prog_memory, &header);
    pl->state = HB_PLAYER_PLAYING;
}

/* 3.5: a play from k outputs what the play from 0 outputs from its tick k on, for k spread over
 * 0..T-1; the seek's cost (executions and loop-body decodes) stays within 2 X. Returns 0 on a
 * difference. */
/* 3.6 "one player is 2.0": a player alone at 1x, from 0 to its last brake step (B = 20), outputs
 * what 2.0's interpreter outputs for the same program with 2.0's version byte. Returns 0 on a
 * difference. */
static int check_as_2_0(const char *name, uint32_t length)
{
    static uint8_t v2[4096];
    static hb_player pl;
    hb_interp it;
    hb_config core = prog_cfg.base.core;
    hb_player_out out;
    uint32_t n;
    hb_err err;
    memcpy(v2, prog_memory, length);
    v2[2] = HB_FORMAT_VERSION;
    core.brake_ticks = 20;
    hb_interp_init(&it, &core);
    err = hb_interp_load_validated(&it, v2);
    reserve_from(&pl, 0);
    for (n = 0;
         err == HB_OK && n < SESSION_MAX_TICKS && (it.p.mode != HB_MODE_IDLE || pl.state != HB_PLAYER_FREE);
         n++) {
        hb_sample s = hb_interp_step(&it);
        uint8_t ended = hb_player_step(&pl, &prog_sh, n, 256, 256, core.brake_ticks, &out);
        uint8_t flags = out.amp == 0u && out.brake ? HB_SAMPLE_BRAKE : 0u;
        (void)ended;
        if (s.amp != out.amp || s.sharp != (out.amp != 0u ? out.sharp : 0u) || s.flags != flags) {
            printf("FAIL %s: alone at 1x, tick %u: %u %u %u, 2.0 outputs %u %u %u\n", name, (unsigned)n,
                   out.amp, out.sharp, flags, s.amp, s.sharp, s.flags);
            return 0;
        }
    }
    return err == HB_OK;
}

static int check_seeks(const char *name, uint32_t total, uint32_t bound, uint32_t *worst)
{
    static hb_player whole, part;
    static hb_sample expected[SESSION_MAX_TICKS];
    uint32_t k, j, stride = total / 23u + 1u, steps = total < SESSION_MAX_TICKS ? total : SESSION_MAX_TICKS;
    hb_player_out out;
    reserve_from(&whole, 0);
    for (j = 0; j < steps; j++) {
        (void)hb_player_step(&whole, &prog_sh, j, 256, 256, 0, &out);
        expected[j].amp = out.amp;
        expected[j].sharp = out.sharp;
    }
    for (k = 0; k < steps; k += stride) {
        uint32_t cost;
        reserve_from(&part, 0);
        cost = hb_player_seek(&part, &prog_sh, k);
        if (cost > *worst) *worst = cost;
        if (bound != 0u && cost > 2u * bound) {
            printf("FAIL %s: seek to %u cost %u, above 2 X = %u\n", name, (unsigned)k, (unsigned)cost,
                   (unsigned)(2u * bound));
            return 0;
        }
        for (j = k; j < steps && j < k + 64u; j++) {
            (void)hb_player_step(&part, &prog_sh, j, 256, 256, 0, &out);
            if (out.amp != expected[j].amp || out.sharp != expected[j].sharp) {
                printf("FAIL %s: from %u, tick %u: %u %u, expected %u %u\n", name, (unsigned)k, (unsigned)j,
                       out.amp, out.sharp, expected[j].amp, expected[j].sharp);
                return 0;
            }
        }
    }
    return 1;
}

/* Programs whose loops touch one channel while a ramp runs on the other across skipped
 * iterations (short and long ramps): the seek's closed form for the untouched channel; then peaks
 * made by a jump's run and head (count 3) and by the restart's run at END with `first`. (A loop of
 * count 1 never jumps, so its run and head do not count toward the peak, 3.1; Format3Tests'
 * property and C-against-Swift checks cover that case.) T, the peak and X from the reference
 * (vectors/v3/program3.py: validate3, peak, seek_cost_bound). */
static const char *const extra[][2] = {
    {"48500301e803180000002a030000a61360c8900320ffd804a31e40324578c5a01482b428430ad4e7",
     "expect: ok total 810 peak 3 seek_bound 20"},
    {"48500301e8030c0000004106000019cb20fab817a0c840094463c4e1",
     "expect: ok total 1601 peak 4 seek_bound 15"},
    {"48500301e8030e0000001500000051960009a2030032403c05464050c0e4",
     "expect: ok total 21 peak 5 seek_bound 18"},
    {"48500301e8030e0000000a0000000fb3a0020032403c05464050c00001e0",
     "expect: ok total 10 peak 8 seek_bound 13"},
};

/* programs.txt (3.1, 3.5): each program COMMITted: its result, T and peak; the valid ones'
 * seeks. Then every valid 2.0 program vector (vectors/programs) as format 3: valid, or error 31
 * for the four that leave a ramp or pulse running across an iteration's end (docs/protocol-3-design.md);
 * their seeks. */
static void run_programs(const char *folder, int *passed, int *failed)
{
    static char line[LINE_SIZE], name[256];
    static uint8_t program[4096];
    static vector_folder v2;
    static const hb_channel_config one = {NULL, 30000u, 7, 20, 2000, 3000, 20, 1, 1, 224, 3};
    char path[1024], *args[2];
    long length = -1;
    uint32_t worst = 0;
    int i, programs = 0, v2_programs = 0, closed = 0;
    FILE *file = vector_open(folder, "programs.txt");
    memset(&prog_cfg, 0, sizeof prog_cfg);
    hb_device_config_default(&prog_cfg.base);
    prog_cfg.base.slot_count = 2;
    prog_cfg.base.slot_capacity = 4096;
    prog_cfg.base.wake_ticks = 0;
    prog_cfg.channels = &one;
    prog_cfg.channel_count = 1;
    prog_cfg.players = 1;
    prog_cfg.work_budget = 36;
    prog_cfg.base.capabilities |= HB_CAP_SEEK; /* rule (f) and X at COMMIT (3.13) */
    if (file == NULL || !hb_device3_init(&prog_dev, &prog_cfg, prog_memory, NULL, tx, NULL)) {
        (*failed)++;
        return;
    }
    for (i = 0;; i++) {
        unsigned long total, peak, bound, code;
        uint32_t value = 0;
        int got, ok = 1;
        if (i >= (int)(sizeof extra / sizeof extra[0]) && fgets(line, sizeof line, file) == NULL) break;
        if (i < (int)(sizeof extra / sizeof extra[0])) { /* the table above first */
            snprintf(name, sizeof name, "extra_%d", i);
            length = vector_hex(extra[i][0], program, sizeof program);
            snprintf(line, sizeof line, "%s", extra[i][1]);
        } else if (sscanf(line, "program %255s", name) == 1) {
            length = vector_hex(strchr(line + 8, ' ') + 1, program, sizeof program);
            continue;
        }
        if (strncmp(line, "expect:", 7) != 0 || length < 0) continue;
        programs++;
        got = commit(program, (uint32_t)length, &value);
        if (sscanf(line, "expect: ok total %lu peak %lu seek_bound %lu", &total, &peak, &bound) == 3) {
            ok = got == 0 && value == total && prog_dev.slot_peak[0] == peak;
            if (!ok) {
                printf("FAIL programs.txt %s: COMMIT %d value %u peak %u, expected ok %lu peak %lu\n", name,
                       got, (unsigned)value, prog_dev.slot_peak[0], total, peak);
            } else {
                ok = check_as_2_0(name, (uint32_t)length)
                     && (total == 0u || check_seeks(name, (uint32_t)total, (uint32_t)bound, &worst));
            }
        } else if (sscanf(line, "expect: error %lu", &code) == 1) {
            ok = got == (int)code;
            if (!ok) printf("FAIL programs.txt %s: COMMIT %d, expected error %lu\n", name, got, code);
            if (ok && code == HB_ERR_LOOP_NOT_CLOSED) { /* without SEEK, rule (f) is not checked */
                prog_cfg.base.capabilities &= (uint16_t)~HB_CAP_SEEK;
                got = commit(program, (uint32_t)length, &value);
                prog_cfg.base.capabilities |= HB_CAP_SEEK;
                ok = got == 0;
                if (!ok) printf("FAIL programs.txt %s: COMMIT %d without SEEK, expected ok\n", name, got);
            }
        }
        ok ? (*passed)++ : (*failed)++;
        length = -1;
    }
    fclose(file);
    snprintf(path, sizeof path, "%s/../programs", folder);
    args[0] = name;
    args[1] = path;
    if (vector_folder_open(&v2, 2, args, "programs")) {
        for (i = 0; i < v2.count; i++) {
            FILE *f = vector_open(path, v2.sorted[i]);
            int expect_ok = 0, ok = 1, got;
            uint32_t value = 0;
            length = -1;
            while (f != NULL && fgets(line, sizeof line, f) != NULL) {
                if (strncmp(line, "program: ", 9) == 0)
                    length = vector_hex(line + 9, program, sizeof program);
                if (strncmp(line, "expect: ok", 10) == 0) expect_ok = 1;
                if (strncmp(line, "config:", 7) == 0 && !strstr(line, " rate=1000 max_body=4096"))
                    length = -1;
            }
            if (f != NULL) fclose(f);
            if (!expect_ok || length < HB_HEADER_SIZE || strncmp(v2.sorted[i], "stream_", 7) == 0) {
                continue; /* streamed programs' vectors: their verdict is the stream's (1.14) */
            }
            program[2] = HB_FORMAT_VERSION_3;
            v2_programs++;
            got = commit(program, (uint32_t)length, &value);
            if (got == HB_ERR_LOOP_NOT_CLOSED) {
                ok = strstr("loop_ramp_crosses_iterations.txt pulse_in_loop.txt loop_head_nested.txt "
                            "loop_nested_4.txt",
                            v2.sorted[i])
                     != NULL;
            } else {
                ok = got == 0;
                closed += ok;
                if (ok) ok = check_as_2_0(v2.sorted[i], (uint32_t)length);
                if (ok && value > 0u) ok = check_seeks(v2.sorted[i], value, 0, &worst);
            }
            if (!ok) printf("FAIL programs/%s as format 3: COMMIT %d\n", v2.sorted[i], got);
            ok ? (*passed)++ : (*failed)++;
        }
    }
    printf("v3 programs: %d (programs.txt, extra), %d valid 2.0 vectors as format 3 (%d closed, the rest "
           "error 31); "
           "seeks exact, the costliest %u executions and decodes\n",
           programs, v2_programs, closed, (unsigned)worst);
}

/* trim.txt: every listed tick start under hb_trim's accumulator with the trim changes in force. */
/* DIAG per channel (3.11, not in the reference): DIAG_REPORT is the channel, then the board's 18
 * bytes with that channel's stage fault; a channel the device does not have gets no reply. */
static void fill_diag(void *ctx, uint8_t *payload)
{
    (void)ctx;
    memset(payload, 0x5A, HB_LEN_DIAG_REPORT);
}

static int diag_per_channel(void)
{
    uint8_t channel = 1;
    uint32_t value = 0;
    hb_frame_decoder rx;
    size_t i;
    int ok = 0;
    prog_cfg.channel_count = 1;
    if (!hb_device3_init(&prog_dev, &prog_cfg, prog_memory, NULL, tx, NULL)) return 0;
    prog_dev.dev.diag = fill_diag; /* the session's hook (hb_device_set_diag's, on 2.0's device) */
    (void)command(HB_MSG_DIAG, 1, &channel, 1, &value);
    ok = session.got_used == 0; /* channel 1 of 1: ignored */
    channel = 0;
    hb_device3_set_stage_fault(&prog_dev, 0, HB_ERR_OVER_CURRENT);
    (void)command(HB_MSG_DIAG, 2, &channel, 1, &value);
    hb_frame_decoder_init(&rx);
    for (i = 0; i < session.got_used; i++) {
        if (hb_frame_decoder_push(&rx, session.got_bytes[i]) == HB_FRAME_READY) {
            hb_frame_header h;
            const uint8_t *p;
            uint8_t n;
            hb_frame_decoder_frame(&rx, &h, &p, &n);
            ok = ok && h.type == HB_MSG_DIAG_REPORT && n == HB_LEN3_DIAG_REPORT && p[0] == 0
                 && p[2] == HB_ERR_OVER_CURRENT && p[1] == 0x5A && p[18] == 0x5A;
        }
    }
    if (!ok) printf("FAIL DIAG per channel\n");
    return ok;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    if (argc != 2) {
        printf("usage: %s <firmware-protocol/vectors/v3>\n", argv[0]);
        return 2;
    }
    run_programs(argv[1], &passed, &failed);
    diag_per_channel() ? passed++ : failed++;
    printf("v3 programs: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
