/* Error codes of programs and the interpreter (firmware-protocol/PROTOCOL.md, 1.16).
 * 1..30: validation, in the order the validator checks them (31: format 3's rule (f), after them,
 * firmware-protocol/PROTOCOL-3.md 3.1); 48..63: faults while playing.
 * The numbers are on the wire: never renumber. */
#ifndef HB_ERROR_H
#define HB_ERROR_H

#include <stdint.h>

typedef uint8_t hb_err;

enum {
    HB_OK = 0,
    /* header */
    HB_ERR_HEADER_TRUNCATED = 1,
    HB_ERR_BAD_MAGIC = 2,
    HB_ERR_BAD_VERSION = 3,
    HB_ERR_BAD_FLAGS = 4,
    HB_ERR_BAD_RATE = 5,
    HB_ERR_TOO_LARGE = 6,
    HB_ERR_LENGTH_MISMATCH = 7,
    HB_ERR_BAD_CRC = 8,
    /* body */
    HB_ERR_TRUNCATED = 16,
    HB_ERR_VARINT_TOO_LONG = 17,
    HB_ERR_VARINT_NONCANONICAL = 18,
    HB_ERR_NO_SHARP_CHANNEL = 19,
    HB_ERR_LOOP_COUNT_ZERO = 20,
    HB_ERR_LOOP_TOO_DEEP = 21,
    HB_ERR_ENDLOOP_WITHOUT_LOOP = 22,
    HB_ERR_LOOP_IN_STREAM = 23,
    HB_ERR_TICKS_OVERFLOW = 24,
    HB_ERR_LOOP_EMPTY = 25,
    HB_ERR_RUN_TOO_LONG = 26,
    HB_ERR_LOOP_UNTERMINATED = 27,
    HB_ERR_END_NOT_LAST = 28,
    HB_ERR_TICKS_MISMATCH = 29,
    HB_ERR_END_MISSING = 30,
    HB_ERR_LOOP_NOT_CLOSED = 31, /* format 3 only */
    /* faults while playing */
    HB_ERR_UNDERRUN = 48,
    HB_ERR_SAFETY_LIMIT = 49
};

#endif
