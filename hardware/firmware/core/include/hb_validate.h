/* The program rules that need context (firmware-protocol/PROTOCOL.md, 1.6): loops, times,
 * instruction runs, END. One checker serves both the whole-program validator and streamed
 * playback, which applies the same rules as the bytes arrive (1.14). */
#ifndef HB_VALIDATE_H
#define HB_VALIDATE_H

#include <stdint.h>

#include "hb_config.h"
#include "hb_error.h"
#include "hb_port.h"
#include "hb_program.h"

#define HB_MAX_LOOP_DEPTH 4u
#define HB_MAX_RUN 9u      /* 1.6 (d), (e): most instructions one tick executes */
#define HB_HEAD_OPEN 0x80u /* loop_head / first: still counting (the low bits: run when it opened) */

/* A whole program's open loops. A streamed program has none (1.6 (b)), so a stream's checker,
 * which the interpreter keeps for as long as the stream plays, holds none. */
typedef struct hb_check_loops {
    uint32_t start[HB_MAX_LOOP_DEPTH]; /* time of each open LOOP */
    uint8_t count[HB_MAX_LOOP_DEPTH];
    uint8_t head[HB_MAX_LOOP_DEPTH]; /* 1.6 (e): each open loop's head */
} hb_check_loops;

typedef struct hb_check {
    const hb_header *header; /* the program's: T, the body's length, its flags */
    hb_check_loops *loops;   /* NULL: a streamed program, LOOP and ENDLOOP are errors */
    uint32_t time;           /* current instruction's time, first iteration of every open loop */
    uint8_t first;           /* 1.6 (e): the instructions tick 0 executes */
    uint8_t depth;
    uint8_t run;
} hb_check;

/* A checker for a program with `header` (the caller's, unchanged while it checks): a whole one with
 * room for its loops in `loops` (the caller's too), or a streamed one (`loops` NULL). */
void hb_check_init(hb_check *chk, const hb_header *header, hb_check_loops *loops);

/* Rules (b)-(e) and the END rules of 1.6 for the next instruction in byte order;
 * `end_offset` is the body offset just past it. HB_OK means the instruction is acceptable (for
 * END: the program is complete and consistent, CRC aside). */
HB_MUST_CHECK hb_err hb_check_instr(hb_check *chk, const hb_instr *instr, uint32_t end_offset);

/* Validates a whole program (header and body, `length` bytes) for a device with `cfg`:
 * every rule of 1.6, in order. On HB_OK, *header holds the parsed header. */
HB_MUST_CHECK hb_err hb_program_validate(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                         hb_header *header);

/* Called between bounded pieces of long work (a validation pass, a long copy) so that a board
 * can run a tick that has come due meanwhile (hb_device_set_yield). */
typedef void (*hb_yield_fn)(void *ctx);

/* The same, with the body's CRC-16 already computed by the caller (a device keeps a running CRC
 * of uploaded bytes): identical results and error order, one pass over the body fewer. `yield`
 * (NULL: none) is called with `ctx` after every instruction checked. */
HB_MUST_CHECK hb_err hb_program_validate_with_crc(const uint8_t *program, uint32_t length,
                                                  const hb_config *cfg, hb_header *header, uint16_t body_crc,
                                                  hb_yield_fn yield, void *ctx);

/* What validation learns about a valid program beyond its header (PROTOCOL-3.md 3.1, 3.5). */
typedef struct hb_program_info {
    uint32_t seek_bound; /* X (3.5): the most instructions a seek executes, saturated at 2^32 - 1 */
    uint8_t peak;        /* 3.1: the most instructions one program tick executes, restart included */
} hb_program_info;

/* Validates a program for a device that takes programs of `format`: HB_FORMAT_VERSION (2.0, the
 * same verdicts as hb_program_validate) or HB_FORMAT_VERSION_3 (rule 3 with version 3, then rule
 * (f) of PROTOCOL-3.md 3.1, error HB_ERR_LOOP_NOT_CLOSED, after rules 1-30). One pass with fixed
 * state, as hb_program_validate. On HB_OK, *header holds the header and *info the peak and seek
 * bound (computed for either format). `body_crc` (NULL: computed here), `yield` and `ctx` as
 * hb_program_validate_with_crc. */
HB_MUST_CHECK hb_err hb_program_validate_format(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                                uint8_t format, const uint16_t *body_crc, hb_yield_fn yield,
                                                void *ctx, hb_header *header, hb_program_info *info);

/* The same for format 3 on a device with SEEK (`seek` 1: rule (f) and X) or without (`seek` 0,
 * PROTOCOL-3.md 3.13 capability bit 9: the peak only, info->seek_bound 0). `info` must not be
 * NULL. A constant `seek` lets the compiler drop what it does not reach. */
HB_MUST_CHECK hb_err hb_program_validate_seek(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                              uint8_t seek, const uint16_t *body_crc, hb_yield_fn yield,
                                              void *ctx, hb_header *header, hb_program_info *info);

#endif
