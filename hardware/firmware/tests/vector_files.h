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

#endif
