#include "hb_validate.h"

#include <stddef.h>

#include "hb_crc16.h"
#include "hb_port.h"

void hb_check_init(hb_check *chk, const hb_header *header, uint8_t streamed)
{
    chk->time = 0;
    chk->total_ticks = header->total_ticks;
    chk->body_length = header->body_length;
    chk->depth = 0;
    chk->run = 0;
    chk->first = HB_HEAD_OPEN;
    chk->flags = header->flags;
    chk->streamed = streamed;
}

/* start + period * count (count 1..255), or 0 with *overflow set if it exceeds 2^32 - 1. The
 * product is formed from 16-bit halves of period (16 x 8-bit multiplies) rather than checked with
 * a 32-bit division as 1.6 suggests: the same verdict, which an 8-bit CPU gets far cheaper. */
static uint32_t loop_end(uint32_t start, uint32_t period, uint8_t count, uint8_t *overflow)
{
    uint32_t low = (uint32_t)(uint16_t)period * count;          /* < 2^24 */
    uint32_t high = (uint32_t)(uint16_t)(period >> 16) * count; /* < 2^24 */
    uint32_t product, end;
    *overflow = 1;
    if (high > 0xFFFFu) {
        return 0;
    }
    product = (high << 16) + low;
    if (product < low) {
        return 0;
    }
    end = start + product;
    if (end < start) {
        return 0;
    }
    *overflow = 0;
    return end;
}

/* 1.6 (e), at an instruction with a nonzero delay: every open head ends with the run before it
 * (chk->run still counts that run). Streamed programs have no loops, so there only `first`. */
static void close_heads(hb_check *chk)
{
    uint8_t i, run = chk->run;
    if (chk->first & HB_HEAD_OPEN) {
        chk->first = run;
    }
    for (i = 0; i < chk->depth; i++) {
        uint8_t head = chk->loop_head[i];
        if (head & HB_HEAD_OPEN) {
            chk->loop_head[i] = (uint8_t)(run - (uint8_t)(head & (uint8_t)~HB_HEAD_OPEN));
        }
    }
}

/* hb_check_instr for LOOP, ENDLOOP and END: every rule, in 1.6's order. Out of line, so that the
 * common case (SET, RAMP, PULSE, once per streamed fetch) keeps few registers. */
static HB_NOINLINE HB_MUST_CHECK hb_err check_control(hb_check *chk, const hb_instr *in, uint32_t end_offset)
{
    uint8_t op = in->op;
    uint32_t time;
    /* (b) */
    if (chk->streamed && op != HB_OP_END) {
        return HB_ERR_LOOP_IN_STREAM;
    }
    if (op == HB_OP_LOOP) {
        if (in->value == 0) {
            return HB_ERR_LOOP_COUNT_ZERO;
        }
        if (chk->depth >= HB_MAX_LOOP_DEPTH) {
            return HB_ERR_LOOP_TOO_DEEP;
        }
    } else if (op == HB_OP_ENDLOOP && chk->depth == 0) {
        return HB_ERR_ENDLOOP_WITHOUT_LOOP;
    }
    if (in->delay != 0) {
        close_heads(chk);
    }
    /* (c) */
    time = chk->time + in->delay;
    if (time < in->delay) {
        return HB_ERR_TICKS_OVERFLOW;
    }
    if (time > chk->total_ticks) {
        return HB_ERR_TICKS_MISMATCH;
    }
    if (op == HB_OP_ENDLOOP) {
        /* the loop lasts `count` iterations of `period` ticks after its LOOP's time */
        uint8_t top = (uint8_t)(chk->depth - 1u);
        uint32_t start = chk->loop_start[top];
        uint32_t period = time - start;
        uint8_t overflow;
        chk->depth = top;
        if (period == 0) {
            return HB_ERR_LOOP_EMPTY;
        }
        time = loop_end(start, period, chk->loop_count[top], &overflow);
        if (overflow) {
            return HB_ERR_TICKS_OVERFLOW;
        }
        if (time > chk->total_ticks) {
            return HB_ERR_TICKS_MISMATCH;
        }
    }
    chk->time = time;
    /* (d) */
    chk->run = in->delay == 0 ? (uint8_t)(chk->run + 1u) : 1u;
    if (chk->run > HB_MAX_RUN) {
        return HB_ERR_RUN_TOO_LONG;
    }
    /* (e): the run up to a jump plus what the jump leads to (closed: see close_heads) */
    if (op == HB_OP_ENDLOOP) {
        if (chk->run + chk->loop_head[chk->depth] > HB_MAX_RUN) {
            return HB_ERR_RUN_TOO_LONG;
        }
    } else if (op == HB_OP_END) {
        if (chk->depth != 0) {
            return HB_ERR_LOOP_UNTERMINATED;
        }
        if (end_offset != chk->body_length) {
            return HB_ERR_END_NOT_LAST;
        }
        if (time != chk->total_ticks) {
            return HB_ERR_TICKS_MISMATCH;
        }
        if (time != 0 && chk->run + chk->first > HB_MAX_RUN) {
            return HB_ERR_RUN_TOO_LONG;
        }
    } else {
        chk->loop_start[chk->depth] = time;
        chk->loop_count[chk->depth] = in->value;
        chk->loop_head[chk->depth] = (uint8_t)(HB_HEAD_OPEN | chk->run);
        chk->depth++;
    }
    return HB_OK;
}

hb_err hb_check_instr(hb_check *chk, const hb_instr *in, uint32_t end_offset)
{
    uint8_t op = in->op;
    uint32_t delay, time;
    if (op >= HB_OP_LOOP) {
        return check_control(chk, in, end_offset);
    }
    /* (b) */
    if ((op == HB_OP_SET_S || op == HB_OP_RAMP_S) && (chk->flags & HB_FLAG_SHARP) == 0) {
        return HB_ERR_NO_SHARP_CHANNEL;
    }
    /* (e) then (c): t + delay with a carry test (the 33rd bit) */
    delay = in->delay;
    if (delay != 0) {
        close_heads(chk);
    }
    time = chk->time + delay;
    if (time < delay) {
        return HB_ERR_TICKS_OVERFLOW;
    }
    if (time > chk->total_ticks) {
        return HB_ERR_TICKS_MISMATCH;
    }
    chk->time = time;
    /* (d) */
    chk->run = delay == 0 ? (uint8_t)(chk->run + 1u) : 1u;
    if (chk->run > HB_MAX_RUN) {
        return HB_ERR_RUN_TOO_LONG;
    }
    return HB_OK;
}

/* ---- format 3: rule (f), the peak and the seek bound (PROTOCOL-3.md 3.1, 3.5) ---- */

#define SHAPE_A 0u     /* index of the amplitude channel's end */
#define SHAPE_S 1u     /* the sharpness channel's */
#define SHAPE_PULSE 2u /* the largest pulse end */

/* What one pass keeps beyond hb_check: for each open loop, the relative ends (time minus the loop's
 * start) of its last A and S instructions and its largest pulse end, and which channels it touched;
 * for each open list (0: the program), the seek bound of its items so far. */
typedef struct shape {
    uint32_t end[HB_MAX_LOOP_DEPTH][3];
    uint32_t cost[HB_MAX_LOOP_DEPTH + 1u];
    uint8_t touched[HB_MAX_LOOP_DEPTH]; /* bit SHAPE_A, bit SHAPE_S */
    uint8_t peak;
    uint8_t open; /* 1: some loop broke rule (f); the ends are no longer kept */
} shape;

static uint32_t add_saturated(uint32_t a, uint32_t b)
{
    return a + b < a ? 0xFFFFFFFFu : a + b;
}

static void note_run(shape *sh, uint8_t run)
{
    if (run > sh->peak) {
        sh->peak = run;
    }
}

/* SET, RAMP or PULSE at chk->time, inside the loop chk->depth - 1 (if any) */
static void shape_channel(shape *sh, const hb_check *chk, const hb_instr *in)
{
    uint8_t top = (uint8_t)(chk->depth - 1u), op = in->op;
    uint32_t end;
    if (chk->depth == 0 || sh->open) {
        return;
    }
    end = chk->time - chk->loop_start[top];
    if (op == HB_OP_PULSE) {
        end += hb_pulse_length(in->sharp);
        if (end > sh->end[top][SHAPE_PULSE]) {
            sh->end[top][SHAPE_PULSE] = end;
        }
        return;
    }
    if (op == HB_OP_RAMP_A || op == HB_OP_RAMP_S) {
        end = add_saturated(end, in->dur);
    }
    op = op <= HB_OP_RAMP_A ? (uint8_t)SHAPE_A : (uint8_t)SHAPE_S;
    sh->end[top][op] = end;
    sh->touched[top] = (uint8_t)(sh->touched[top] | (1u << op));
}

/* ENDLOOP of loop `top` (chk->depth after the pop), whose ENDLOOP is at `endloop_time` */
static void shape_close(shape *sh, const hb_check *chk, uint32_t endloop_time)
{
    uint8_t top = chk->depth, count = chk->loop_count[top], runs, i;
    uint32_t start = chk->loop_start[top], period = endloop_time - start, *end = sh->end[top];
    uint32_t cost = 1, body = add_saturated(sh->cost[top + 1u], 1);
    /* X: 1 + min(count, s + 1) * (X(body) + 1), s = max(1, ceil(20 / period)) */
    runs = 2u;
    if (period < 20u) {
        runs = (uint8_t)((uint8_t)(20u + period - 1u) / (uint8_t)period + 1u);
    }
    runs = count < runs ? count : runs;
    for (i = 0; i < runs; i++) {
        cost = add_saturated(cost, body);
    }
    sh->cost[top] = add_saturated(sh->cost[top], cost);
    note_run(sh, (uint8_t)(chk->run + chk->loop_head[top]));
    if (sh->open) {
        return;
    }
    for (i = 0; i < 3u; i++) {
        if (end[i] > period) {
            sh->open = 1;
            return;
        }
    }
    if (top > 0) {
        /* to the enclosing loop, at the last iteration's place */
        uint32_t shift = start - chk->loop_start[top - 1u] + (uint32_t)(count - 1u) * period;
        uint32_t *outer = sh->end[top - 1u];
        for (i = SHAPE_A; i <= SHAPE_S; i++) {
            if (sh->touched[top] & (1u << i)) {
                outer[i] = end[i] + shift;
            }
        }
        sh->touched[top - 1u] = (uint8_t)(sh->touched[top - 1u] | sh->touched[top]);
        if (end[SHAPE_PULSE] != 0 && end[SHAPE_PULSE] + shift > outer[SHAPE_PULSE]) {
            outer[SHAPE_PULSE] = end[SHAPE_PULSE] + shift;
        }
    }
}

/* After hb_check_instr accepted `in`, which began at `before` (chk->time before it). */
static void shape_instr(shape *sh, const hb_check *chk, const hb_instr *in, uint32_t before)
{
    uint8_t depth = chk->depth;
    note_run(sh, chk->run);
    if (in->op == HB_OP_ENDLOOP) {
        shape_close(sh, chk, before + in->delay);
        return;
    }
    if (in->op == HB_OP_LOOP) {
        uint8_t top = (uint8_t)(depth - 1u);
        sh->end[top][SHAPE_A] = sh->end[top][SHAPE_S] = sh->end[top][SHAPE_PULSE] = 0;
        sh->touched[top] = 0;
        sh->cost[depth] = 0;
        return;
    }
    sh->cost[depth] = add_saturated(sh->cost[depth], 1);
    if (in->op == HB_OP_END) {
        if (chk->time != 0) {
            note_run(sh, (uint8_t)(chk->run + chk->first));
        }
        return;
    }
    shape_channel(sh, chk, in);
}

/* `body_crc` is the body's CRC when the caller already has it, else NULL; `yield` (may be NULL)
 * runs after every instruction; `info` (NULL: not wanted) gets the peak and seek bound, and with
 * it rule (f) is checked when `format` is 3. */
static HB_MUST_CHECK hb_err validate(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                     uint8_t format, hb_header *header, const uint16_t *body_crc,
                                     hb_yield_fn yield, void *ctx, hb_program_info *info)
{
    const uint8_t *body, *end;
    hb_check chk;
    shape sh;
    uint32_t offset = 0;
    uint16_t crc;
    hb_err err = hb_header_parse_format(program, length, cfg, format, header);
    if (err != HB_OK) {
        return err;
    }
    if (header->body_length > cfg->max_body) {
        return HB_ERR_TOO_LARGE;
    }
    if (header->body_length != length - HB_HEADER_SIZE) {
        return HB_ERR_LENGTH_MISMATCH;
    }
    crc = body_crc != NULL ? *body_crc
                           : hb_crc16(HB_CRC16_INIT, program + HB_HEADER_SIZE, (size_t)header->body_length);
    if (crc != header->crc) {
        return HB_ERR_BAD_CRC;
    }
    body = program + HB_HEADER_SIZE;
    end = body + header->body_length;
    hb_check_init(&chk, header, 0);
    sh.cost[0] = 0;
    sh.peak = 0;
    sh.open = 0;
    for (;;) {
        hb_instr in;
        uint32_t before = chk.time;
        /* straight from the buffer: hb_instr_decode's results on a flat source, without its
         * per-byte source calls */
        uint8_t n = hb_instr_decode_bytes(body + offset, end, &in);
        if (n > HB_MAX_INSTR_BYTES) {
            return n == HB_ERR_TRUNCATED && offset == header->body_length ? HB_ERR_END_MISSING : n;
        }
        offset += n;
        err = hb_check_instr(&chk, &in, offset);
        if (err != HB_OK) {
            return err;
        }
        if (info != NULL) {
            shape_instr(&sh, &chk, &in, before);
        }
        if (in.op == HB_OP_END) {
            break;
        }
        if (yield != NULL) {
            yield(ctx);
        }
    }
    if (info != NULL) {
        if (format == HB_FORMAT_VERSION_3 && sh.open) {
            return HB_ERR_LOOP_NOT_CLOSED;
        }
        info->peak = sh.peak;
        info->seek_bound = sh.cost[0];
    }
    return HB_OK;
}

hb_err hb_program_validate(const uint8_t *program, uint32_t length, const hb_config *cfg, hb_header *header)
{
    return validate(program, length, cfg, HB_FORMAT_VERSION, header, NULL, NULL, NULL, NULL);
}

hb_err hb_program_validate_with_crc(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                    hb_header *header, uint16_t body_crc, hb_yield_fn yield, void *ctx)
{
    return validate(program, length, cfg, HB_FORMAT_VERSION, header, &body_crc, yield, ctx, NULL);
}

hb_err hb_program_validate_format(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                  uint8_t format, const uint16_t *body_crc, hb_yield_fn yield, void *ctx,
                                  hb_header *header, hb_program_info *info)
{
    hb_program_info unused;
    return validate(program, length, cfg, format, header, body_crc, yield, ctx,
                    info != NULL ? info : &unused);
}
