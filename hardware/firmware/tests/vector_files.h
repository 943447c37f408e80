/* What the test runners share in reading vector files (firmware-protocol/vectors/<name>, *.txt):
 * the files of a folder in name order, hex fields and key=value fields. vector_files.c, linked
 * into every runner. */
#ifndef HB_TESTS_VECTOR_FILES_H
#define HB_TESTS_VECTOR_FILES_H

#include <stddef.h>
#include <stdint.h>

#define VECTOR_NAME_MAX 256

/* Fills names[0..max) with the .txt file names in `folder` and sorted[] with pointers to them,
 * in name order, so every run reads them in the same order. Returns the count, or -1 if the
 * folder cannot be opened. */
int vector_files(const char *folder, char (*names)[VECTOR_NAME_MAX], char **sorted, int max);

/* Parses a hex field into out[0..capacity): leading spaces are skipped, "-" is no bytes, else an
 * even run of hex digits (either case) up to the end of the string or line. Returns the byte
 * count, or -1 (an odd or non-hex digit, or more than `capacity` bytes). */
long vector_hex(const char *text, uint8_t *out, size_t capacity);

/* Reads " key=<decimal>" from a line into *out; returns 1 if present, else 0. */
int vector_number(const char *line, const char *key, unsigned long *out);

#endif
