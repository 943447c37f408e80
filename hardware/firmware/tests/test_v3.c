/* Runs the protocol 3.0 vectors (firmware-protocol/vectors/v3/, format in the README there) through
 * the 3.0 device (hb_device3) and the tick trim (hb_trim): every session of sessions/ (every .txt), the
 * received bytes before the step of their tick, every byte sent (with its tick) and every channel's
 * sample compared; and every tick start of trim.txt. Programs and seeks: test_v3_programs.c.
 *
 * Usage: test_v3 <firmware-protocol/vectors/v3>. Exit status 0 when nothing failed.
 * Host-only test code: stdio and dirent, no malloc, like the core. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hb_device3.h"
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

int main(int argc, char **argv)
{
    static vector_folder folder;
    char sessions[1024];
    char *args[2];
    int passed = 0, failed = 0, trims_passed = 0, trims_failed = 0;
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
    printf("v3: sessions %d passed, %d failed; trims %d passed, %d failed; sizeof(hb_device3) = %u, "
           "sizeof(hb_player) = %u on this host\n",
           passed, failed, trims_passed, trims_failed, (unsigned)sizeof(hb_device3),
           (unsigned)sizeof(hb_player));
    return failed == 0 && trims_failed == 0 ? 0 : 1;
}
