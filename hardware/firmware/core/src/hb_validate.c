#include "hb_validate.h"

#include <stddef.h>

#include "hb_crc16.h"
#include "hb_port.h"

void hb_check_init(hb_check *chk, const hb_header *header, hb_check_loops *loops)
{
    chk->time = 0;
    chk->header = header;
    chk->depth = 0;
    chk->run = 0;
    chk->first = HB_HEAD_OPEN;
    chk->loops = loops;
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
    uint8_t i, run = chk->run, depth = chk->depth;
    uint8_t *heads = depth != 0u ? chk->loops->head : NULL;
    if (chk->first & HB_HEAD_OPEN) {
        chk->first = run;
    }
    for (i = 0; i < depth; i++) {
        uint8_t head = heads[i];
        if (head & HB_HEAD_OPEN) {
            heads[i] = (uint8_t)(run - (uint8_t)(head & (uint8_t)~HB_HEAD_OPEN));
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
    if (chk->loops == NULL && op != HB_OP_END) {
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
    if (time > chk->header->total_ticks) {
        return HB_ERR_TICKS_MISMATCH;
    }
    if (op == HB_OP_ENDLOOP) {
        /* the loop lasts `count` iterations of `period` ticks after its LOOP's time */
        uint8_t top = (uint8_t)(chk->depth - 1u);
        uint32_t start = chk->loops->start[top];
        uint32_t period = time - start;
        uint8_t overflow;
        chk->depth = top;
        if (period == 0) {
            return HB_ERR_LOOP_EMPTY;
        }
        time = loop_end(start, period, chk->loops->count[top], &overflow);
        if (overflow) {
            return HB_ERR_TICKS_OVERFLOW;
        }
        if (time > chk->header->total_ticks) {
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
        if (chk->run + chk->loops->head[chk->depth] > HB_MAX_RUN) {
            return HB_ERR_RUN_TOO_LONG;
        }
    } else if (op == HB_OP_END) {
        if (chk->depth != 0) {
            return HB_ERR_LOOP_UNTERMINATED;
        }
        if (end_offset != chk->header->body_length) {
            return HB_ERR_END_NOT_LAST;
        }
        if (time != chk->header->total_ticks) {
            return HB_ERR_TICKS_MISMATCH;
        }
        if (time != 0 && chk->run + chk->first > HB_MAX_RUN) {
            return HB_ERR_RUN_TOO_LONG;
        }
    } else {
        hb_check_loops *lp = chk->loops;
        uint8_t depth = chk->depth;
        lp->start[depth] = time;
        lp->count[depth] = in->value;
        lp->head[depth] = (uint8_t)(HB_HEAD_OPEN | chk->run);
        chk->depth = (uint8_t)(depth + 1u);
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
    if ((op == HB_OP_SET_S || op == HB_OP_RAMP_S) && (chk->header->flags & HB_FLAG_SHARP) == 0) {
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
    if (time > chk->header->total_ticks) {
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

#define SHAPE_PULSE 2u /* index of the largest pulse end; 0 and 1: the A and S channels' */

/* An open loop: the ends of its last A and S instructions (a SET's time, a RAMP's time + dur) and
 * its largest pulse end (time + length), which of the three it has (bit i: end[i]), and the seek
 * bound of its body so far. Ends are times of the validator's pass (1.6 (c): the first iteration of
 * every open loop), so rule (f) compares them with the loop's ENDLOOP time: the relative ends and
 * P of PROTOCOL-3.md 3.1, both shifted by the loop's start. */
typedef struct shape_loop {
    uint32_t end[3];
    uint32_t cost;
    uint8_t has;
} shape_loop;

/* What one pass keeps beyond hb_check (on the stack, as hb_check: 4 x 17 + 6 bytes). */
typedef struct shape {
    shape_loop loop[HB_MAX_LOOP_DEPTH];
    uint32_t cost; /* the seek bound of the program's top-level items so far */
    uint8_t peak;
    uint8_t open; /* 1: some loop broke rule (f) */
} shape;

static HB_NOINLINE uint32_t add_saturated(uint32_t a, uint32_t b)
{
    return a + b < a ? 0xFFFFFFFFu : a + b;
}

static HB_NOINLINE void note_run(shape *sh, uint8_t run)
{
    if (run > sh->peak) {
        sh->peak = run;
    }
}

/* The seek bound of the list open at `depth` (0: the program's) */
static uint32_t *cost_at(shape *sh, uint8_t depth)
{
    return depth == 0 ? &sh->cost : &sh->loop[depth - 1u].cost;
}

/* A new end i for loop `lp`: a later A or S end replaces its own, a pulse end counts if it is the
 * largest. */
static HB_NOINLINE void shape_move(shape_loop *lp, uint8_t i, uint32_t end)
{
    if (i != SHAPE_PULSE || !(lp->has & (1u << i)) || end > lp->end[i]) {
        lp->end[i] = end;
    }
    lp->has = (uint8_t)(lp->has | (1u << i));
}

/* ENDLOOP of the loop at chk->depth (after the pop), whose ENDLOOP is at `endloop_time` */
static HB_NOINLINE void shape_close(shape *sh, const hb_check *chk, uint32_t endloop_time)
{
    uint8_t top = chk->depth, count = chk->loops->count[top], runs = 2u, i;
    uint32_t period = endloop_time - chk->loops->start[top], cost = 1, *outer_cost = cost_at(sh, top);
    const shape_loop *in = &sh->loop[top];
    /* X: 1 + min(count, s + 1) * (X(body) + 1), s = max(1, ceil(20 / period)) */
    if (period < 20u) {
        runs = (uint8_t)((uint8_t)(20u + period - 1u) / (uint8_t)period + 1u);
    }
    for (i = 0; i < runs && i < count; i++) {
        cost = add_saturated(cost, add_saturated(in->cost, 1));
    }
    *outer_cost = add_saturated(*outer_cost, cost);
    /* (f), and the ends to the enclosing loop, at the last iteration's place */
    for (i = 0; i <= SHAPE_PULSE; i++) {
        if (in->has & (1u << i)) {
            if (in->end[i] > endloop_time) {
                sh->open = 1;
            }
            if (top > 0) {
                shape_move(&sh->loop[top - 1u], i, in->end[i] + (uint32_t)(count - 1u) * period);
            }
        }
    }
}

/* After hb_check_instr accepted `in`, which began at `before` (chk->time before it): the peak,
 * and with `closed` (a device with SEEK, PROTOCOL-3.md 3.13) rule (f) and X. */
static HB_NOINLINE void shape_instr(shape *sh, const hb_check *chk, const hb_instr *in, uint32_t before,
                                    uint8_t closed)
{
    uint8_t depth = chk->depth, op = in->op, i;
    shape_loop *lp;
    uint32_t end = chk->time;
    note_run(sh, chk->run);
    if (op == HB_OP_ENDLOOP && chk->loops->count[depth] > 1u) {
        /* a jump's tick: this run, then the head (a loop of count 1 never jumps) */
        note_run(sh, (uint8_t)(chk->run + chk->loops->head[depth]));
    }
    if (op == HB_OP_END && end != 0) {
        note_run(sh, (uint8_t)(chk->run + chk->first));
    }
    if (!closed) {
        return;
    }
    if (op == HB_OP_ENDLOOP) {
        shape_close(sh, chk, before + in->delay);
        return;
    }
    if (op == HB_OP_LOOP) {
        lp = &sh->loop[depth - 1u];
        lp->cost = 0;
        lp->has = 0;
        return;
    }
    *cost_at(sh, depth) = add_saturated(*cost_at(sh, depth), 1);
    if (op == HB_OP_END) {
        return;
    }
    if (depth == 0) {
        return;
    }
    /* SET, RAMP or PULSE inside the loop depth - 1 */
    i = (uint8_t)(op >> 1); /* SET_A, RAMP_A: 0; SET_S, RAMP_S: 1; PULSE: 2 */
    if (op == HB_OP_PULSE) {
        end = add_saturated(end, hb_pulse_length(in->sharp));
    } else if (op & 1u) {
        end = add_saturated(end, in->dur);
    }
    shape_move(&sh->loop[depth - 1u], i, end);
}

/* `body_crc` is the body's CRC when the caller already has it, else NULL; `yield` (may be NULL)
 * runs after every instruction; `info` (NULL: not wanted) gets the peak, and with `closed` the seek
 * bound, and rule (f) is checked when `format` is 3. */
static HB_MUST_CHECK hb_err validate(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                     uint8_t format, hb_header *header, const uint16_t *body_crc,
                                     hb_yield_fn yield, void *ctx, hb_program_info *info, uint8_t closed)
{
    const uint8_t *body, *end;
    hb_check chk;
    hb_check_loops loops;
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
    hb_check_init(&chk, header, &loops);
    sh.cost = 0;
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
            shape_instr(&sh, &chk, &in, before, closed);
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
        info->seek_bound = sh.cost;
    }
    return HB_OK;
}

hb_err hb_program_validate(const uint8_t *program, uint32_t length, const hb_config *cfg, hb_header *header)
{
    return validate(program, length, cfg, HB_FORMAT_VERSION, header, NULL, NULL, NULL, NULL, 0);
}

HB_NOINLINE hb_err hb_program_validate_with_crc(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                                hb_header *header, uint16_t body_crc, hb_yield_fn yield,
                                                void *ctx)
{
    return validate(program, length, cfg, HB_FORMAT_VERSION, header, &body_crc, yield, ctx, NULL, 0);
}

hb_err hb_program_validate_format(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                  uint8_t format, const uint16_t *body_crc, hb_yield_fn yield, void *ctx,
                                  hb_header *header, hb_program_info *info)
{
    hb_program_info unused;
    return validate(program, length, cfg, format, header, body_crc, yield, ctx, info != NULL ? info : &unused,
                    1);
}

hb_err hb_program_validate_seek(const uint8_t *program, uint32_t length, const hb_config *cfg, uint8_t seek,
                                const uint16_t *body_crc, hb_yield_fn yield, void *ctx, hb_header *header,
                                hb_program_info *info)
{
    return validate(program, length, cfg, HB_FORMAT_VERSION_3, header, body_crc, yield, ctx, info, seek);
}
