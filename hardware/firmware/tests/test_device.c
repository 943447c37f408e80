/* Runs the device vectors (firmware-protocol/vectors/device/, one session per .txt, format in the
 * README there) through hb_device: the received bytes go in before the step of their tick, and
 * the bytes sent (with their ticks) and every output sample must match. Also a few direct API
 * checks.
 *
 * Usage: test_device <vectors directory>. Exit status 0 when nothing failed.
 * Host-only test code: stdio and dirent, but no malloc, like the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_crc16.h"
#include "hb_device.h"

#include "vector_files.h"

#define MAX_TICKS SESSION_MAX_TICKS
#define MAX_BYTES SESSION_MAX_BYTES
#define LINE_SIZE 8192
#define MAX_MEMORY 65536

/* The parsed vector. */
static hb_device_config cfg;
static char profile_name[64];
static hb_sample samples[MAX_TICKS];

/* The session file, and what the device did. */
static vector_session session;
static uint8_t memory[MAX_MEMORY];
static uint8_t ring[MAX_MEMORY];

static int api_checks = 0, api_failures = 0;

static void tx(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    vector_session_sent(&session, bytes, length);
}

static int parse_config(const char *line)
{
    const char *fw = strstr(line, " fw="), *name = strstr(line, " profile_name=");
    unsigned major, minor, patch;
    int found;
    if (fw == NULL || name == NULL || sscanf(fw, " fw=%u.%u.%u", &major, &minor, &patch) != 3) return 0;
    if (sscanf(name, " profile_name=%63s", profile_name) != 1) return 0;
    hb_device_config_default(&cfg);
    found = vector_core_config(line, &cfg.core) + VECTOR_FIELD(line, "slots", cfg.slot_count)
            + VECTOR_FIELD(line, "slot_capacity", cfg.slot_capacity)
            + VECTOR_FIELD(line, "stream", cfg.stream_capacity)
            + VECTOR_FIELD(line, "rx_buffer", cfg.rx_buffer) + VECTOR_FIELD(line, "wake", cfg.wake_ticks)
            + VECTOR_FIELD(line, "idle", cfg.idle_ticks) + VECTOR_FIELD(line, "watchdog", cfg.watchdog)
            + VECTOR_FIELD(line, "actuator", cfg.actuator) + VECTOR_FIELD(line, "profile_id", cfg.profile_id)
            + VECTOR_FIELD(line, "device_id", cfg.device_id) + VECTOR_FIELD(line, "caps", cfg.capabilities)
            + VECTOR_FIELD(line, "reset_reason", cfg.reset_reason)
            + VECTOR_FIELD(line, "boot_count", cfg.boot_count);
    cfg.fw_major = (uint8_t)major;
    cfg.fw_minor = (uint8_t)minor;
    cfg.fw_patch = (uint8_t)patch;
    cfg.profile_name = strcmp(profile_name, "-") == 0 ? NULL : profile_name;
    return found == 18;
}

static int parse_samples(const char *line)
{
    unsigned long first, last;
    unsigned a, s, f;
    char *end;
    first = strtoul(line, &end, 10);
    last = first;
    if (*end == '-') last = strtoul(end + 1, &end, 10);
    if (*end != ':' || sscanf(end + 1, "%u %u %u", &a, &s, &f) != 3 || last >= MAX_TICKS) return 0;
    for (; first <= last; first++) {
        samples[first].amp = (uint8_t)a;
        samples[first].sharp = (uint8_t)s;
        samples[first].flags = (uint8_t)f;
    }
    return 1;
}

static int parse(const char *path)
{
    return vector_session_parse(&session, path, parse_config, parse_samples);
}

/* Most notices one step queued, over every vector run split (hb_device_step + hb_device_flush). */
static unsigned max_queued;

/* split = 0: hb_device_tick; 1: hb_device_step, which must send nothing, then hb_device_flush
 * (the board's deadline-first order). Both must give the vector's bytes at the vector's ticks.
 * split = 2: hb_device_step and never hb_device_flush (but once at the end): the device sends
 * the queued notices before anything else, so the bytes are the same, one tick later.
 * split = 3: as 1 with deferred replies (hb_device_set_deferred_replies): the replies to the
 * tick's frames are held through the step (which still sends nothing) and go out first at the
 * flush: the vector's bytes at the vector's ticks again. */
static int run(const char *name, int split)
{
    static hb_device dev;
    uint32_t t, next_input = 0;
    session.got_used = 0;
    session.current_tick = 0;
    if ((uint32_t)cfg.slot_count * cfg.slot_capacity > MAX_MEMORY || cfg.stream_capacity > MAX_MEMORY
        || !hb_device_init(&dev, &cfg, memory, ring, tx, NULL)) {
        printf("FAIL %s: configuration\n", name);
        return 0;
    }
    hb_device_set_deferred_replies(&dev, (uint8_t)(split == 3));
    for (t = 0; t < session.ticks; t++) {
        hb_sample s;
        session.current_tick = t;
        while (next_input < session.input_count && session.inputs[next_input].tick == t) {
            if (session.inputs[next_input].fault) {
                hb_device_set_stage_fault(&dev, (uint8_t)session.inputs[next_input].start);
            } else {
                hb_device_receive(&dev, session.in_bytes + session.inputs[next_input].start,
                                  (uint16_t)session.inputs[next_input].length);
            }
            next_input++;
        }
        if (split) {
            uint32_t before = session.got_used;
            s = hb_device_step(&dev);
            if ((split == 1 || split == 3) && session.got_used != before) {
                printf("FAIL %s: tick %u: hb_device_step sent %u bytes\n", name, (unsigned)t,
                       (unsigned)(session.got_used - before));
                return 0;
            }
            if (dev.s.queued_count > max_queued) max_queued = dev.s.queued_count;
            if (split != 2) hb_device_flush(&dev);
        } else {
            s = hb_device_tick(&dev);
        }
        if (s.amp != samples[t].amp || s.sharp != samples[t].sharp || s.flags != samples[t].flags) {
            printf("FAIL %s: tick %u: sample %u %u %u, expected %u %u %u\n", name, (unsigned)t, s.amp,
                   s.sharp, s.flags, samples[t].amp, samples[t].sharp, samples[t].flags);
            return 0;
        }
    }
    hb_device_flush(&dev);
    return vector_session_compare(&session, name, split != 2);
}

static void check(int condition, const char *what)
{
    api_checks++;
    if (!condition) {
        printf("FAIL api: %s\n", what);
        api_failures++;
    }
}

/* A 320-tick program (ramps, pulses, a loop: the ATmega328P self-test's). */
static const uint8_t program[] = {
    0x48, 0x50, 0x02, 0x01, 0xE8, 0x03, 0x1C, 0x00, 0x00, 0x00, 0x40, 0x01, 0x00, 0x00, 0xCB,
    0xEB, 0x40, 0x28, 0x25, 0xC8, 0x32, 0x9F, 0x18, 0xFF, 0xFF, 0x74, 0xDC, 0x28, 0xAA, 0x03,
    0x0A, 0x50, 0x85, 0xB4, 0x00, 0x39, 0xA0, 0x0A, 0xCA, 0x2A, 0x00, 0x3C, 0xFF, 0x27,
};

static void send_frame(hb_device *dev, uint8_t type, uint8_t seq, const uint8_t *payload, uint8_t length)
{
    hb_frame_header h;
    uint8_t wire[HB_FRAME_MAX_WIRE];
    size_t n;
    h.version = 1;
    h.type = type;
    h.sequence = seq;
    h.flags = 0;
    n = hb_frame_encode(&h, payload, length, wire, sizeof wire);
    hb_device_receive(dev, wire, (uint16_t)n);
}

/* The board's yield hook: runs one step (and its flush) the first time it is called. */
static hb_device *yield_device;
static int yield_calls, yield_steps;

static void step_on_first_yield(void *ctx)
{
    (void)ctx;
    yield_calls++;
    if (yield_steps == 0) {
        (void)hb_device_step(yield_device);
        hb_device_flush(yield_device);
        yield_steps++;
    }
}

/* HELLO sends INFO in pieces with the yield hook between them; a step that runs there (a pending
 * PLAY starting: TELEMETRY STARTED) keeps its notice until INFO is out. The bytes, and the device
 * state after one more step, are those of a device that handled HELLO first and stepped after. */
static void hello_yields(void)
{
    static hb_device a, b;
    hb_device_config c;
    uint8_t upload[5 + sizeof program], commit[7], play[10] = {0, 0, 0, 0, 0, 0, 255, 0, 1, 0},
                                                   hello[2] = {HB_PROTOCOL_MAJOR, HB_PROTOCOL_MINOR};
    uint8_t first[MAX_BYTES];
    uint32_t first_used = 0;
    uint16_t crc = hb_crc16(HB_CRC16_INIT, program, sizeof program);
    int pass;
    hb_device_config_default(&c);
    c.wake_ticks = 0;
    upload[0] = 0;
    upload[1] = upload[2] = upload[3] = upload[4] = 0;
    memcpy(upload + 5, program, sizeof program);
    commit[0] = 0;
    commit[1] = (uint8_t)sizeof program;
    commit[2] = commit[3] = commit[4] = 0;
    commit[5] = (uint8_t)(crc & 0xFFu);
    commit[6] = (uint8_t)(crc >> 8);
    for (pass = 0; pass < 2; pass++) {
        hb_device *dev = pass == 0 ? &a : &b;
        session.got_used = 0;
        hb_device_init(dev, &c, memory, ring, tx, NULL);
        send_frame(dev, HB_MSG_UPLOAD, 1, upload, sizeof upload);
        send_frame(dev, HB_MSG_COMMIT, 2, commit, sizeof commit);
        send_frame(dev, HB_MSG_PLAY, 3, play, sizeof play);
        if (pass == 0) { /* reference: HELLO handled in one go, then step 0 */
            send_frame(dev, HB_MSG_HELLO, 4, hello, sizeof hello);
            (void)hb_device_tick(dev);
        } else { /* step 0 runs from the yield hook while INFO goes out */
            yield_device = dev;
            yield_calls = yield_steps = 0;
            hb_device_set_yield(dev, step_on_first_yield);
            send_frame(dev, HB_MSG_HELLO, 4, hello, sizeof hello);
            hb_device_set_yield(dev, NULL);
            /* once the step has queued STARTED, INFO's remaining pieces no longer yield */
            check(yield_steps == 1 && yield_calls == 1, "HELLO's INFO yields until a step queues a notice");
        }
        (void)hb_device_tick(dev); /* steps 1 and 2 */
        (void)hb_device_tick(dev);
        if (pass == 0) {
            memcpy(first, session.got_bytes, session.got_used);
            first_used = session.got_used;
        }
    }
    check(session.got_used == first_used && memcmp(first, session.got_bytes, session.got_used) == 0,
          "INFO sent in pieces: same bytes, STARTED after INFO");
    check(a.s.now == 3u && b.s.now == 3u && a.s.silence == b.s.silence && a.s.active && b.s.active,
          "same tick, silence and play after HELLO and three steps");
    /* With no step to run, INFO (50 raw bytes, 52 on the wire) yields after each 16-byte piece
     * of its checksum (3) and between its 4 wire pieces (3). */
    yield_device = &b;
    yield_calls = 0;
    yield_steps = 1;
    hb_device_set_yield(&b, step_on_first_yield);
    send_frame(&b, HB_MSG_HELLO, 5, hello, sizeof hello);
    hb_device_set_yield(&b, NULL);
    check(yield_calls == 6, "INFO goes out in 6 pieces");
}

/* Direct checks of what the vectors cannot show. */
/* The last frame sent, decoded: its payload in `decoded`, its length returned (-1: not of `type`). */
static uint8_t decoded[HB_FRAME_MAX_PAYLOAD];
static int decoded_payload(uint8_t type)
{
    hb_frame_decoder d;
    hb_frame_header h;
    const uint8_t *p = NULL;
    uint8_t n = 0;
    uint32_t i;
    int ready = 0;
    hb_frame_decoder_init(&d);
    for (i = 0; i < session.got_used; i++) {
        if (hb_frame_decoder_push(&d, session.got_bytes[i]) == HB_FRAME_READY) {
            hb_frame_decoder_frame(&d, &h, &p, &n);
            ready = h.type == type;
            if (ready) memcpy(decoded, p, n);
        }
    }
    return ready ? (int)n : -1;
}

static void fill_diag(void *ctx, uint8_t *payload)
{
    (void)ctx;
    payload[0] = HB_DIAG_STAGE_DRV2605L;
    payload[1] = 0xEE; /* the device's own stage fault replaces it */
    payload[17] = 0x5A;
}

static int recalibrations;
static uint8_t accept_recalibrate(void *ctx, uint8_t key, uint32_t value)
{
    (void)ctx;
    if (key != HB_CONFIG_RECALIBRATE || value != 1u) return HB_ERR_BAD_PARAM;
    recalibrations++;
    return 0;
}

/* A STREAM_DATA frame's data goes into the ring as it is decoded (hb_dev_stream_byte), within the
 * free bytes counted when its data began; a frame that passes rule 2 only because a step released
 * bytes while it arrived is copied at its end instead. Both play the same samples, to FINISHED. */
static void stream_placement(void)
{
    static hb_device dev;
    static hb_device_config c;
    uint8_t streamed[16 + 25], *body = streamed + 16,
                               play[HB_LEN_PLAY] = {HB_STREAM_SLOT, 0, 0, 0, 0, 0, 255, 0, 1, 0};
    uint8_t data[4 + 16], wire[HB_FRAME_MAX_WIRE], amp[20];
    hb_frame_header h = {1, HB_MSG_STREAM_DATA, 0, 0};
    uint16_t crc;
    size_t n, i;
    int k, ok = 1;
    for (i = 0; i < 12; i++) { /* SET_A 10 + 10 i after 1 tick each, then END a tick later */
        body[2 * i] = 0x01;
        body[2 * i + 1] = (uint8_t)(10u + 10u * i);
    }
    body[24] = 0xE1;
    crc = hb_crc16(HB_CRC16_INIT, body, 25);
    memcpy(streamed, "HP\x02\x00\xE8\x03\x19\x00\x00\x00\x0D\x00\x00\x00", 14);
    streamed[14] = (uint8_t)(crc & 0xFFu);
    streamed[15] = (uint8_t)(crc >> 8);
    hb_device_config_default(&c);
    c.slot_count = 1;
    c.stream_capacity = 16;
    c.stream_tail = HB_SOURCE_TAIL;
    c.wake_ticks = 0;
    hb_device_init(&dev, &c, memory, ring, tx, NULL);
    send_frame(&dev, HB_MSG_STREAM_OPEN, 1, streamed, 16);
    memcpy(data, "\0\0\0\0", 4);
    memcpy(data + 4, body, 16);
    send_frame(&dev, HB_MSG_STREAM_DATA, 2, data, 20); /* the whole ring, placed as it came */
    check(dev.s.ring.written == 16 && dev.s.ring.crc_at == 16 && memcmp(ring, body, 16) == 0
              && memcmp(ring + 16, body, HB_SOURCE_TAIL) == 0,
          "STREAM_DATA placed in the ring and its mirrored tail as it arrived");
    send_frame(&dev, HB_MSG_PLAY, 3, play, sizeof play);
    for (k = 0; k < 4; k++) { /* ticks 0..3 read up to body offset 8 (the instruction of tick 4) */
        amp[k] = hb_device_tick(&dev).amp;
    }
    /* bytes 16..24 with 8 free bytes above next: the first half of the frame, then steps that
     * release more, then the rest; by its end rule 2 lets all 9 in */
    data[0] = 16;
    memcpy(data + 4, body + 16, 9);
    n = hb_frame_encode(&h, data, 4 + 9, wire, sizeof wire);
    check(dev.s.ring.released == 8u, "ticks 0..3 released body offsets 0..7");
    hb_device_receive(&dev, wire, 14); /* the frame's first data bytes: 8 free above next */
    for (; k < 6; k++) {
        amp[k] = hb_device_tick(&dev).amp;
    }
    hb_device_receive(&dev, wire + 14, (uint16_t)(n - 15));
    check(dev.s.rx_placing == 0u && dev.s.ring.written == 16u,
          "the 9th byte, past the 8 free at its start, not placed");
    hb_device_receive(&dev, wire + n - 1, 1);
    check(dev.s.ring.written == 25 && dev.s.ring.crc_at == 25 && memcmp(ring, body + 16, 9) == 0
              && memcmp(ring + 16, body + 16, 9) == 0,
          "its frame, in by rule 2 at its end (steps released 4 more), copied then");
    for (; k < 20; k++) {
        amp[k] = hb_device_tick(&dev).amp;
    }
    for (k = 0; k < 13; k++) {
        ok = ok && amp[k] == (k == 0 ? 0 : 10 + 10 * (k - 1));
    }
    check(ok && !dev.s.active && dev.play.error == HB_OK,
          "the stream plays every sample to its END, CRC right");
}

static void api_tests(void)
{
    static hb_device dev;
    hb_device_config c;
    hb_device_config_default(&c);
    check(c.slot_count == 4 && c.slot_capacity == 1024 && c.stream_capacity == 256 && c.wake_ticks == 20
              && c.idle_ticks == 2000 && c.watchdog == 1000 && c.core.rate == 1000,
          "defaults are those of 2.16");
    c.slot_count = 0;
    session.got_used = 0;
    check(!hb_device_init(&dev, &c, memory, ring, tx, NULL) && session.got_used == 0,
          "0 slots refused, nothing sent");
    c.slot_count = HB_DEVICE_MAX_SLOTS + 1u;
    check(!hb_device_init(&dev, &c, memory, ring, tx, NULL), "too many slots refused");
    c.slot_count = 1;
    c.stream_capacity = 96;
    check(!hb_device_init(&dev, &c, memory, ring, tx, NULL), "a ring that is not a power of two refused");
    c.stream_capacity = 0;
    c.wake_ticks = 0;
    check(hb_device_init(&dev, &c, memory, ring, tx, NULL) && session.got_used == 15,
          "RESET is 15 bytes on the wire");
    check(hb_device_stage(&dev) == HB_STAGE_WARM, "W = 0: warm at boot");
    /* The longest reply, INFO with a 16-byte name (and a longer one truncated), fits HB_DEVICE_TX_MAX. */
    {
        hb_frame_header h = {1, HB_MSG_HELLO, 0, 0};
        uint8_t wire[HB_FRAME_MAX_WIRE];
        uint8_t payload[2] = {HB_PROTOCOL_MAJOR, HB_PROTOCOL_MINOR};
        size_t n = hb_frame_encode(&h, payload, 2, wire, sizeof wire);
        c.profile_name = "a-profile-name-longer-than-16";
        c.device_id = 0xFFFFFFFFu;
        hb_device_init(&dev, &c, memory, ring, tx, NULL);
        session.got_used = 0;
        hb_device_receive(&dev, wire, (uint16_t)n);
        check(session.got_used == HB_DEVICE_TX_MAX - 1u || session.got_used == HB_DEVICE_TX_MAX,
              "INFO with a 16-byte name fits");
    }
    /* The tick counter and PONG: a PING before step n reports n. */
    {
        hb_frame_header h = {1, HB_MSG_PING, 5, 0};
        uint8_t wire[HB_FRAME_MAX_WIRE];
        uint8_t payload[4] = {1, 2, 3, 4};
        size_t n = hb_frame_encode(&h, payload, 4, wire, sizeof wire);
        int k;
        for (k = 0; k < 300; k++) (void)hb_device_tick(&dev);
        session.got_used = 0;
        hb_device_receive(&dev, wire, (uint16_t)n);
        check(dev.s.now == 300 && session.got_used > 0, "PONG sent, now = 300");
    }
    /* A board's diagnostics and SET_CONFIG keys (2.18): its hooks fill DIAG_REPORT (the device adds
     * the stage fault) and answer RECALIBRATE. */
    {
        uint8_t payload[5] = {HB_CONFIG_RECALIBRATE, 1, 0, 0, 0};
        session.got_used = 0;
        hb_device_set_diag(&dev, fill_diag);
        hb_device_set_stage_fault(&dev, HB_ERR_OVER_CURRENT);
        send_frame(&dev, HB_MSG_DIAG, 9, NULL, 0);
        check(session.got_used > 0 && decoded_payload(HB_MSG_DIAG_REPORT) == HB_LEN_DIAG_REPORT
                  && decoded[0] == 2 && decoded[1] == HB_ERR_OVER_CURRENT && decoded[17] == 0x5A,
              "DIAG_REPORT from the board's hook, with the stage fault");
        session.got_used = 0;
        send_frame(&dev, HB_MSG_SET_CONFIG, 10, payload, sizeof payload);
        check(decoded_payload(HB_MSG_NACK) == HB_LEN_NACK && decoded[1] == HB_ERR_BAD_PARAM,
              "RECALIBRATE without a board: BAD_PARAM");
        hb_device_set_config_hook(&dev, accept_recalibrate);
        session.got_used = 0;
        send_frame(&dev, HB_MSG_SET_CONFIG, 11, payload, sizeof payload);
        check(decoded_payload(HB_MSG_ACK) == HB_LEN_ACK && recalibrations == 1,
              "RECALIBRATE through the hook");
        hb_device_set_stage_fault(&dev, 0);
    }
    hello_yields();
    stream_placement();
    printf("sizeof(hb_device) = %u bytes on this host (interpreter %u, frame decoder %u)\n",
           (unsigned)sizeof(hb_device), (unsigned)sizeof(hb_interp), (unsigned)sizeof(hb_frame_decoder));
}

/* Every vector, run each of the four ways. */
static int run_all_splits(const char *name)
{
    return run(name, 0) && run(name, 1) && run(name, 2) && run(name, 3);
}

int main(int argc, char **argv)
{
    static vector_folder folder;
    int passed = 0, failed = 0;
    if (!vector_folder_open(&folder, argc, argv, "device")) {
        return 2;
    }
    api_tests();
    vector_folder_run(&folder, parse, run_all_splits, &passed, &failed);
    printf("device: every vector also run as hb_device_step + hb_device_flush, without the flush, and with "
           "deferred replies; at most %u notices queued by a step (queue %u)\n",
           max_queued, (unsigned)HB_DEVICE_NOTICE_QUEUE);
    printf("device: api %d checks, %d failed; vectors %d passed, %d failed\n", api_checks, api_failures,
           passed, failed);
    return failed == 0 && api_failures == 0 ? 0 : 1;
}
