/* Shared by the fuzz targets: a check that aborts (libFuzzer reports it with the input), and the
 * limits that keep each input fast. */
#ifndef FUZZ_CHECK_H
#define FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

/* Ticks played per input: programs may declare up to 2^32 - 1 ticks; longer ones are played
 * this far and must still be playing. */
#define FUZZ_MAX_TICKS 4096u

#endif
