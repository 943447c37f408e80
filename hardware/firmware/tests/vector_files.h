/* What the test runners share in reading vector files (firmware-protocol/vectors/<name>, *.txt):
 * the folder named on the command line and its files in name order, hex fields, key=value fields
 * and the core configuration. vector_files.c, linked into every runner. */
#ifndef HB_TESTS_VECTOR_FILES_H
#define HB_TESTS_VECTOR_FILES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hb_config.h"

#define VECTOR_NAME_MAX 256
#define VECTOR_FILES_MAX 1024

/* The .txt files of a vector folder, in name order, so every run reads them in the same order. */
typedef struct {
    const char *path;
    int count;
    char names[VECTOR_FILES_MAX][VECTOR_NAME_MAX];
    char *sorted[VECTOR_FILES_MAX];
} vector_folder;

/* Lists the folder given as the runner's one argument (argv[1]). Returns 0 after printing
 * "usage: <runner> <firmware-protocol/vectors/<kind>>" when there is no such argument or the
 * folder cannot be opened. */
int vector_folder_open(vector_folder *folder, int argc, char **argv, const char *kind);

/* Each file in name order: parse(path) reads it ("FAIL <name>: cannot parse" if it cannot), then
 * run(name) plays it and returns 1 if everything matched. Adds to *passed and *failed; a folder
 * without vectors counts as a failure ("no vectors in <folder>"). */
void vector_folder_run(const vector_folder *folder, int (*parse)(const char *path),
                       int (*run)(const char *name), int *passed, int *failed);

/* Opens <folder>/<file> for reading; NULL after printing "cannot open <path>". */
FILE *vector_open(const char *folder, const char *file);

/* Parses a hex field into out[0..capacity): leading spaces are skipped, "-" is no bytes, else an
 * even run of hex digits (either case) up to the end of the string or line. Returns the byte
 * count, or -1 (an odd or non-hex digit, or more than `capacity` bytes). */
long vector_hex(const char *text, uint8_t *out, size_t capacity);

/* Reads " key=<decimal>" from a line into *out; returns 1 if present, else 0. */
int vector_number(const char *line, const char *key, unsigned long *out);

/* Reads " key=<decimal>" from a line into an unsigned integer field of `size` bytes (1, 2 or 4);
 * returns 1 if present, else 0 (the field is left as it was). VECTOR_FIELD passes a field's size. */
int vector_field(const char *line, const char *key, void *field, size_t size);
#define VECTOR_FIELD(line, key, field) vector_field(line, key, &(field), sizeof(field))

/* Sets the fields of *cfg that a config line names (rate, max_body, brake, threshold, safety);
 * returns how many it found. */
int vector_core_config(const char *line, hb_config *cfg);

/* A device session file (firmware-protocol/vectors/device/README.md, and vectors/v3/README.md for
 * 3.0): what both device runners read and compare the same way. The `in`, `out`, `fault` and
 * `ticks:` lines, and the bytes the device sent with the tick each was sent at. */
#define SESSION_MAX_INPUTS 4096
#define SESSION_MAX_BYTES 200000
#define SESSION_MAX_TICKS 20000

typedef struct {
    uint32_t tick;
    uint32_t start;  /* `in`: offset in in_bytes; `fault`: the code */
    uint32_t length; /* `in`: byte count */
    int fault;       /* a `fault` line: the board reports a stage fault (2.18) */
    uint8_t channel; /* 3.0's `fault <tick> <channel> <code>`; 0 for 2.0's `fault <tick> <code>` */
} session_input;

typedef struct {
    session_input inputs[SESSION_MAX_INPUTS];
    uint32_t input_count;
    uint8_t in_bytes[SESSION_MAX_BYTES];
    uint32_t in_used;
    uint32_t out_ticks[SESSION_MAX_BYTES];
    uint8_t out_bytes[SESSION_MAX_BYTES];
    uint32_t out_used;
    uint32_t ticks;
    /* what the device sent, each byte with the tick it was sent at */
    uint32_t got_ticks[SESSION_MAX_BYTES];
    uint8_t got_bytes[SESSION_MAX_BYTES];
    uint32_t got_used;
    uint32_t current_tick;
} vector_session;

/* Forgets the file read and what was sent. */
void vector_session_clear(vector_session *s);

/* Reads an `in`, `out`, `fault` or `ticks:` line: 1 if it was one, 0 if it is another line, -1 if
 * it was one but malformed or beyond the bounds above. */
int vector_session_line(vector_session *s, const char *line);

/* Reads a session file into *s: `config:` lines go to parse_config (after "config:"), the lines
 * vector_session_line reads to it, every other line but comments to parse_samples; each returns 1
 * when it could read its line. Returns 1 if every line was read and there was a config line. */
int vector_session_parse(vector_session *s, const char *path, int (*parse_config)(const char *line),
                         int (*parse_samples)(const char *line));

/* Records bytes the device sent, at the current tick (a runner's transmit callback). */
void vector_session_sent(vector_session *s, const uint8_t *bytes, uint16_t length);

/* Compares what was sent with the `out` lines (their ticks too if check_ticks); prints the first
 * difference as "FAIL <name>: ..." and returns 0, else 1. */
int vector_session_compare(const vector_session *s, const char *name, int check_ticks);

#endif
