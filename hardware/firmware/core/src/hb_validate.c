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

/* `body_crc` is the body's CRC when the caller already has it, else NULL; `yield` (may be NULL)
 * runs after every instruction. */
static HB_MUST_CHECK hb_err validate(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                     hb_header *header, const uint16_t *body_crc, hb_yield_fn yield,
                                     void *ctx)
{
    const uint8_t *body, *end;
    hb_check chk;
    uint32_t offset = 0;
    uint16_t crc;
    hb_err err = hb_header_parse(program, length, cfg, header);
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
    for (;;) {
        hb_instr in;
        /* straight from the buffer: hb_instr_decode's results on a flat source, without its
         * per-byte source calls */
        uint8_t n = hb_instr_decode_bytes(body + offset, end, &in);
        if (n > HB_MAX_INSTR_BYTES) {
            return n == HB_ERR_TRUNCATED && offset == header->body_length ? HB_ERR_END_MISSING : n;
        }
        offset += n;
        err = hb_check_instr(&chk, &in, offset);
        if (err != HB_OK || in.op == HB_OP_END) {
            return err;
        }
        if (yield != NULL) {
            yield(ctx);
        }
    }
}

hb_err hb_program_validate(const uint8_t *program, uint32_t length, const hb_config *cfg, hb_header *header)
{
    return validate(program, length, cfg, header, NULL, NULL, NULL);
}

hb_err hb_program_validate_with_crc(const uint8_t *program, uint32_t length, const hb_config *cfg,
                                    hb_header *header, uint16_t body_crc, hb_yield_fn yield, void *ctx)
{
    return validate(program, length, cfg, header, &body_crc, yield, ctx);
}
