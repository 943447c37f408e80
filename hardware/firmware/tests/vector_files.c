#include "vector_files.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int vector_folder_open(vector_folder *folder, int argc, char **argv, const char *kind)
{
    struct dirent *entry;
    DIR *dir = argc == 2 ? opendir(argv[1]) : NULL;
    if (dir == NULL) {
        printf("usage: %s <firmware-protocol/vectors/%s>\n", argv[0], kind);
        return 0;
    }
    folder->path = argv[1];
    folder->count = 0;
    while ((entry = readdir(dir)) != NULL && folder->count < VECTOR_FILES_MAX) {
        size_t n = strlen(entry->d_name);
        if (n > 4 && n < VECTOR_NAME_MAX && strcmp(entry->d_name + n - 4, ".txt") == 0) {
            memcpy(folder->names[folder->count], entry->d_name, n + 1);
            folder->sorted[folder->count] = folder->names[folder->count];
            folder->count++;
        }
    }
    closedir(dir);
    qsort(folder->sorted, (size_t)folder->count, sizeof folder->sorted[0], compare_names);
    return 1;
}

void vector_folder_run(const vector_folder *folder, int (*parse)(const char *path),
                       int (*run)(const char *name), int *passed, int *failed)
{
    char path[1024];
    int i;
    for (i = 0; i < folder->count; i++) {
        snprintf(path, sizeof path, "%s/%s", folder->path, folder->sorted[i]);
        if (!parse(path)) {
            printf("FAIL %s: cannot parse\n", folder->sorted[i]);
            (*failed)++;
        } else if (run(folder->sorted[i])) {
            (*passed)++;
        } else {
            (*failed)++;
        }
    }
    if (folder->count == 0) {
        printf("no vectors in %s\n", folder->path);
        (*failed)++;
    }
}

FILE *vector_open(const char *folder, const char *file)
{
    char path[512];
    FILE *opened;
    snprintf(path, sizeof path, "%s/%s", folder, file);
    opened = fopen(path, "r");
    if (opened == NULL) {
        printf("cannot open %s\n", path);
    }
    return opened;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int line_end(char c)
{
    return c == '\0' || c == '\n' || c == '\r';
}

long vector_hex(const char *text, uint8_t *out, size_t capacity)
{
    size_t n = 0;
    while (*text == ' ') text++;
    if (text[0] == '-' && line_end(text[1])) return 0;
    while (!line_end(text[0])) {
        int hi = hex_digit(text[0]);
        int lo = hi < 0 ? -1 : hex_digit(text[1]);
        if (lo < 0 || n >= capacity) return -1;
        out[n++] = (uint8_t)(hi * 16 + lo);
        text += 2;
    }
    return (long)n;
}

int vector_number(const char *line, const char *key, unsigned long *out)
{
    char pattern[64];
    const char *at;
    snprintf(pattern, sizeof pattern, " %s=", key);
    at = strstr(line, pattern);
    if (at == NULL) return 0;
    *out = strtoul(at + strlen(pattern), NULL, 10);
    return 1;
}

int vector_field(const char *line, const char *key, void *field, size_t size)
{
    unsigned long value;
    if (!vector_number(line, key, &value)) return 0;
    if (size == 1) {
        *(uint8_t *)field = (uint8_t)value;
    } else if (size == 2) {
        *(uint16_t *)field = (uint16_t)value;
    } else {
        *(uint32_t *)field = (uint32_t)value;
    }
    return 1;
}

int vector_core_config(const char *line, hb_config *cfg)
{
    return VECTOR_FIELD(line, "rate", cfg->rate) + VECTOR_FIELD(line, "max_body", cfg->max_body)
           + VECTOR_FIELD(line, "brake", cfg->brake_ticks)
           + VECTOR_FIELD(line, "threshold", cfg->safety_threshold)
           + VECTOR_FIELD(line, "safety", cfg->safety_ticks);
}

void vector_session_clear(vector_session *s)
{
    s->input_count = s->in_used = s->out_used = s->ticks = 0;
    s->got_used = s->current_tick = 0;
}

int vector_session_line(vector_session *s, const char *line)
{
    static char hex[SESSION_MAX_BYTES / 4];
    unsigned long tick, channel;
    long n, code;
    if (strncmp(line, "ticks:", 6) == 0) {
        s->ticks = (uint32_t)strtoul(line + 6, NULL, 10);
        return s->ticks <= SESSION_MAX_TICKS ? 1 : -1;
    }
    if (sscanf(line, "in %lu %s", &tick, hex) == 2) {
        n = vector_hex(hex, s->in_bytes + s->in_used, SESSION_MAX_BYTES - s->in_used);
        if (n < 0 || s->input_count >= SESSION_MAX_INPUTS) return -1;
        s->inputs[s->input_count].tick = (uint32_t)tick;
        s->inputs[s->input_count].start = s->in_used;
        s->inputs[s->input_count].length = (uint32_t)n;
        s->inputs[s->input_count].fault = 0;
        s->inputs[s->input_count].channel = 0;
        s->input_count++;
        s->in_used += (uint32_t)n;
        return 1;
    }
    if (strncmp(line, "fault ", 6) == 0) {
        int fields = sscanf(line, "fault %lu %lu %ld", &tick, &channel, &code);
        if (fields == 2) { /* 2.0: fault <tick> <code> */
            code = (long)channel;
            channel = 0;
        } else if (fields != 3) {
            return -1;
        }
        if (code < 0 || code > 255 || channel > 255 || s->input_count >= SESSION_MAX_INPUTS) return -1;
        s->inputs[s->input_count].tick = (uint32_t)tick;
        s->inputs[s->input_count].start = (uint32_t)code;
        s->inputs[s->input_count].length = 0;
        s->inputs[s->input_count].fault = 1;
        s->inputs[s->input_count].channel = (uint8_t)channel;
        s->input_count++;
        return 1;
    }
    if (sscanf(line, "out %lu %s", &tick, hex) == 2) {
        long i;
        n = vector_hex(hex, s->out_bytes + s->out_used, SESSION_MAX_BYTES - s->out_used);
        if (n < 0) return -1;
        for (i = 0; i < n; i++) s->out_ticks[s->out_used + (uint32_t)i] = (uint32_t)tick;
        s->out_used += (uint32_t)n;
        return 1;
    }
    return 0;
}

int vector_session_parse(vector_session *s, const char *path, int (*parse_config)(const char *line),
                         int (*parse_samples)(const char *line))
{
    static char line[8192];
    FILE *file = fopen(path, "r");
    int have_config = 0, ok = 1;
    vector_session_clear(s);
    if (file == NULL) return 0;
    while (ok && fgets(line, sizeof line, file) != NULL) {
        int kind;
        if (line[0] == '#' || line[0] == '\n') continue;
        if (strncmp(line, "config:", 7) == 0) {
            ok = have_config = parse_config(line + 6);
        } else if ((kind = vector_session_line(s, line)) != 0) {
            ok = kind == 1;
        } else {
            ok = parse_samples(line);
        }
    }
    fclose(file);
    return ok && have_config;
}

void vector_session_sent(vector_session *s, const uint8_t *bytes, uint16_t length)
{
    uint16_t i;
    for (i = 0; i < length && s->got_used < SESSION_MAX_BYTES; i++) {
        s->got_ticks[s->got_used] = s->current_tick;
        s->got_bytes[s->got_used++] = bytes[i];
    }
}

int vector_session_compare(const vector_session *s, const char *name, int check_ticks)
{
    uint32_t i;
    for (i = 0; i < s->got_used && i < s->out_used; i++) {
        if (s->got_bytes[i] != s->out_bytes[i] || (check_ticks && s->got_ticks[i] != s->out_ticks[i])) {
            printf("FAIL %s: output byte %u: 0x%02x at tick %u, expected 0x%02x at tick %u\n", name,
                   (unsigned)i, s->got_bytes[i], (unsigned)s->got_ticks[i], s->out_bytes[i],
                   (unsigned)s->out_ticks[i]);
            return 0;
        }
    }
    if (s->got_used != s->out_used) {
        printf("FAIL %s: %u output bytes, expected %u\n", name, (unsigned)s->got_used, (unsigned)s->out_used);
        return 0;
    }
    return 1;
}
