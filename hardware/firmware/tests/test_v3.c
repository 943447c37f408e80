/* Runs the protocol 3.0 vectors (firmware-protocol/vectors/v3/, format in the README there) through
 * the 3.0 device (hb_device3) and the tick trim (hb_trim): every session of sessions/ (every .txt), the
 * received bytes before the step of their tick, every byte sent (with its tick) and every channel's
 * sample compared; and every tick start of trim.txt.
 *
 * Usage: test_v3 <firmware-protocol/vectors/v3>. Exit status 0 when nothing failed.
 * Host-only test code: stdio and dirent, no malloc, like the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_device3.h"
#include "hb_frame.h"
#include "hb_trim.h"

#include "vector_files.h"

#define LINE_SIZE 8192
#define MAX_MEMORY 65536
#define NAME_SIZE 32

static vector_session session;
static hb_device3_config cfg;
static hb_channel_config channels[HB_DEVICE3_MAX_CHANNELS];
static char names[HB_DEVICE3_MAX_CHANNELS][NAME_SIZE];
static hb_sample samples[HB_DEVICE3_MAX_CHANNELS][SESSION_MAX_TICKS];
static uint8_t memory[MAX_MEMORY];
static uint8_t ring[MAX_MEMORY];

static void tx(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    vector_session_sent(&session, bytes, length);
}

/* One channel's `key=value,...` list (or "-"), over the defaults of vectors/v3/README.md. */
static int parse_channel(const char *text, size_t length, uint8_t c)
{
    char list[256], line[260];
    hb_channel_config *ch = &channels[c];
    const char *name;
    memset(ch, 0, sizeof *ch);
    ch->brake_ticks = 20;
    ch->safety_threshold = 224;
    ch->safety_ticks = 30000;
    ch->actuator = 1;
    ch->stage = 1;
    ch->profile_id = 7;
    ch->caps = 3;
    ch->rated_mv = 2000;
    ch->limit_mv = 3000;
    ch->wake_ticks = 20;
    strcpy(names[c], "lra-test");
    ch->profile_name = names[c];
    if (length >= sizeof list) return 0;
    memcpy(list, text, length);
    list[length] = '\0';
    if (strcmp(list, "-") == 0) return 1;
    snprintf(line, sizeof line, " %s", list);
    for (char *p = line; *p != '\0'; p++) {
        if (*p == ',') *p = ' ';
    }
    VECTOR_FIELD(line, "brake", ch->brake_ticks);
    VECTOR_FIELD(line, "threshold", ch->safety_threshold);
    VECTOR_FIELD(line, "safety", ch->safety_ticks);
    VECTOR_FIELD(line, "actuator", ch->actuator);
    VECTOR_FIELD(line, "stage", ch->stage);
    VECTOR_FIELD(line, "profile_id", ch->profile_id);
    VECTOR_FIELD(line, "caps", ch->caps);
    VECTOR_FIELD(line, "rated_mv", ch->rated_mv);
    VECTOR_FIELD(line, "limit_mv", ch->limit_mv);
    VECTOR_FIELD(line, "wake", ch->wake_ticks);
    name = strstr(line, " profile_name=");
    if (name != NULL && sscanf(name, " profile_name=%31s", names[c]) != 1) return 0;
    return 1;
}

static int parse_config(const char *line)
{
    const char *fw = strstr(line, " fw="), *chans = strstr(line, " channel_config=");
    unsigned major, minor, patch;
    int found;
    uint8_t c = 0;
    if (fw == NULL || chans == NULL || sscanf(fw, " fw=%u.%u.%u", &major, &minor, &patch) != 3) return 0;
    memset(&cfg, 0, sizeof cfg);
    hb_device_config_default(&cfg.base);
    found =
        VECTOR_FIELD(line, "channels", cfg.channel_count) + VECTOR_FIELD(line, "players", cfg.players)
        + VECTOR_FIELD(line, "slots", cfg.base.slot_count)
        + VECTOR_FIELD(line, "slot_capacity", cfg.base.slot_capacity)
        + VECTOR_FIELD(line, "stream", cfg.base.stream_capacity)
        + VECTOR_FIELD(line, "rx_buffer", cfg.base.rx_buffer)
        + VECTOR_FIELD(line, "wake", cfg.base.wake_ticks) + VECTOR_FIELD(line, "idle", cfg.base.idle_ticks)
        + VECTOR_FIELD(line, "watchdog", cfg.base.watchdog) + VECTOR_FIELD(line, "rate", cfg.base.core.rate)
        + VECTOR_FIELD(line, "max_body", cfg.base.core.max_body)
        + VECTOR_FIELD(line, "work_budget", cfg.work_budget) + VECTOR_FIELD(line, "fade", cfg.fade_ticks)
        + VECTOR_FIELD(line, "caps", cfg.base.capabilities)
        + VECTOR_FIELD(line, "device_id", cfg.base.device_id)
        + VECTOR_FIELD(line, "reset_reason", cfg.base.reset_reason)
        + VECTOR_FIELD(line, "boot_count", cfg.base.boot_count);
    cfg.base.fw_major = (uint8_t)major;
    cfg.base.fw_minor = (uint8_t)minor;
    cfg.base.fw_patch = (uint8_t)patch;
    cfg.channels = channels;
    chans += strlen(" channel_config=");
    while (c < HB_DEVICE3_MAX_CHANNELS) {
        size_t length = strcspn(chans, ";\n");
        if (!parse_channel(chans, length, c++)) return 0;
        if (chans[length] != ';') break;
        chans += length + 1;
    }
    return found == 17 && c == cfg.channel_count;
}

/* `c<channel> <first>-<last>: <amp> <sharp> <flags>` or `c<channel> <tick>: ...` */
static int parse_samples(const char *line)
{
    unsigned long channel, first, last;
    unsigned a, s, f;
    char *end;
    if (line[0] != 'c') return 0;
    channel = strtoul(line + 1, &end, 10);
    first = strtoul(end, &end, 10);
    last = first;
    if (*end == '-') last = strtoul(end + 1, &end, 10);
    if (*end != ':' || sscanf(end + 1, "%u %u %u", &a, &s, &f) != 3 || last >= SESSION_MAX_TICKS
        || channel >= HB_DEVICE3_MAX_CHANNELS)
        return 0;
    for (; first <= last; first++) {
        samples[channel][first].amp = (uint8_t)a;
        samples[channel][first].sharp = (uint8_t)s;
        samples[channel][first].flags = (uint8_t)f;
    }
    return 1;
}

static int parse(const char *path)
{
    return vector_session_parse(&session, path, parse_config, parse_samples);
}

static int run(const char *name)
{
    static hb_device3 dev;
    hb_sample out[HB_DEVICE3_MAX_CHANNELS];
    uint32_t t, next_input = 0;
    uint8_t c;
    if ((uint32_t)cfg.base.slot_count * cfg.base.slot_capacity > MAX_MEMORY
        || cfg.base.stream_capacity > MAX_MEMORY || !hb_device3_init(&dev, &cfg, memory, ring, tx, NULL)) {
        printf("FAIL %s: configuration\n", name);
        return 0;
    }
    /* inputs of tick `ticks` come after the last step (a QUERY at the end: its reply is the tick's) */
    for (t = 0; t <= session.ticks; t++) {
        session.current_tick = t;
        while (next_input < session.input_count && session.inputs[next_input].tick == t) {
            const session_input *in = &session.inputs[next_input];
            if (in->fault) {
                hb_device3_set_stage_fault(&dev, in->channel, (uint8_t)in->start);
            } else {
                hb_device3_receive(&dev, session.in_bytes + in->start, (uint16_t)in->length);
            }
            next_input++;
        }
        if (t == session.ticks) {
            break;
        }
        hb_device3_step(&dev, out);
        for (c = 0; c < cfg.channel_count; c++) {
            const hb_sample *e = &samples[c][t];
            if (out[c].amp != e->amp || out[c].sharp != e->sharp || out[c].flags != e->flags) {
                printf("FAIL %s: tick %u channel %u: sample %u %u %u, expected %u %u %u\n", name, (unsigned)t,
                       (unsigned)c, out[c].amp, out[c].sharp, out[c].flags, e->amp, e->sharp, e->flags);
                (void)vector_session_compare(&session, name, 1);
                return 0;
            }
        }
    }
    return vector_session_compare(&session, name, 1);
}

/* ---- format 3 programs: COMMIT's verdict and peak, and seek exactness ---- */

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
    hb_player_reserve(pl, &prog_cfg.base.core, &pp, 0, prog_memory, &header, prog_dev.slot_peak[0]);
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
         err == HB_OK && n < SESSION_MAX_TICKS && (it.mode != HB_MODE_IDLE || pl.state != HB_PLAYER_FREE);
         n++) {
        hb_sample s = hb_interp_step(&it);
        uint8_t ended = hb_player_step(&pl, n, 256, 256, core.brake_ticks, &out);
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
        (void)hb_player_step(&whole, j, 256, 256, 0, &out);
        expected[j].amp = out.amp;
        expected[j].sharp = out.sharp;
    }
    for (k = 0; k < steps; k += stride) {
        uint32_t cost;
        reserve_from(&part, 0);
        cost = hb_player_seek(&part, prog_memory, k);
        if (cost > *worst) *worst = cost;
        if (bound != 0u && cost > 2u * bound) {
            printf("FAIL %s: seek to %u cost %u, above 2 X = %u\n", name, (unsigned)k, (unsigned)cost,
                   (unsigned)(2u * bound));
            return 0;
        }
        for (j = k; j < steps && j < k + 64u; j++) {
            (void)hb_player_step(&part, j, 256, 256, 0, &out);
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
 * count 1 never jumps: program3.peak leaves its run and head out, hb_program_validate_format counts
 * them, as 3.1's "the validator's largest run, with heads" reads; not checked here until the two
 * agree.) T, the peak and X from the reference (vectors/v3/program3.py: validate3,
 * peak, seek_cost_bound). */
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
static int run_trims(const char *folder, int *passed, int *failed)
{
    static char line[LINE_SIZE];
    static int32_t ppm_at[SESSION_MAX_TICKS];
    static uint64_t starts[SESSION_MAX_TICKS + 1];
    FILE *file = vector_open(folder, "trim.txt");
    char name[NAME_SIZE * 2] = "";
    int ok = 1, have = 0, checked = 0;
    if (file == NULL) return 0;
    while (fgets(line, sizeof line, file) != NULL) {
        unsigned long period, ticks, k;
        unsigned long long counts;
        if (strncmp(line, "trim ", 5) == 0) {
            const char *changes = strstr(line, " changes=");
            hb_trim trim;
            unsigned long i;
            if (have) {
                ok ? (*passed)++ : (*failed)++;
            }
            ok = have = 1;
            if (sscanf(line, "trim %63s period=%lu", name, &period) != 2 || changes == NULL
                || !vector_number(line, "ticks", &ticks) || ticks > SESSION_MAX_TICKS) {
                printf("FAIL trim.txt: cannot parse %s", line);
                ok = 0;
                continue;
            }
            changes += strlen(" changes=");
            for (i = 0; i < ticks; i++) ppm_at[i] = 0;
            while (*changes != '\0' && *changes != '\n' && *changes != ' ') {
                char *end;
                unsigned long from = strtoul(changes, &end, 10);
                long ppm = strtol(end + 1, &end, 10);
                for (i = from; i < ticks; i++) ppm_at[i] = (int32_t)ppm;
                changes = *end == ',' ? end + 1 : end;
            }
            hb_trim_init(&trim);
            starts[0] = 0;
            for (i = 0; i < ticks; i++) {
                int64_t length = (int64_t)period - hb_trim_tick(&trim, (uint32_t)period, (int16_t)ppm_at[i]);
                starts[i + 1] = starts[i] + (uint64_t)length;
            }
            continue;
        }
        if (sscanf(line, "start %lu %llu", &k, &counts) == 2 && have) {
            checked++;
            if (starts[k] != counts && ok) {
                printf("FAIL trim %s: tick %lu starts at %llu, expected %llu\n", name, k,
                       (unsigned long long)starts[k], counts);
                ok = 0;
            }
        }
    }
    fclose(file);
    if (have) {
        ok ? (*passed)++ : (*failed)++;
    }
    printf("v3 trim: %d tick starts checked\n", checked);
    return checked > 0;
}

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
    hb_device_set_diag(&prog_dev.dev, fill_diag);
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
    static vector_folder folder;
    char sessions[1024];
    char *args[2];
    int passed = 0, failed = 0, trims_passed = 0, trims_failed = 0, programs_passed = 0, programs_failed = 0;
    if (argc != 2) {
        printf("usage: %s <firmware-protocol/vectors/v3>\n", argv[0]);
        return 2;
    }
    snprintf(sessions, sizeof sessions, "%s/sessions", argv[1]);
    args[0] = argv[0];
    args[1] = sessions;
    if (!vector_folder_open(&folder, 2, args, "v3/sessions")) {
        return 2;
    }
    vector_folder_run(&folder, parse, run, &passed, &failed);
    if (!run_trims(argv[1], &trims_passed, &trims_failed)) {
        trims_failed++;
    }
    run_programs(argv[1], &programs_passed, &programs_failed);
    diag_per_channel() ? programs_passed++ : programs_failed++;
    printf("v3: programs %d passed, %d failed\n", programs_passed, programs_failed);
    printf("v3: sessions %d passed, %d failed; trims %d passed, %d failed; sizeof(hb_device3) = %u, "
           "sizeof(hb_player) = %u on this host\n",
           passed, failed, trims_passed, trims_failed, (unsigned)sizeof(hb_device3),
           (unsigned)sizeof(hb_player));
    return failed == 0 && trims_failed == 0 && programs_failed == 0 ? 0 : 1;
}
