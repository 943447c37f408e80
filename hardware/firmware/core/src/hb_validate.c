#include "hb_validate.h"

#include <stddef.h>

#include "hb_crc16.h"

#define TIME_MAX 0xFFFFFFFFu

void hb_check_init(hb_check *chk, const hb_header *header, uint8_t streamed)
{
    chk->time = 0;
    chk->total_ticks = header->total_ticks;
    chk->body_length = header->body_length;
    chk->depth = 0;
    chk->run = 0;
    chk->flags = header->flags;
    chk->streamed = streamed;
}

static hb_err instruction_rules(const hb_check *chk, const hb_instr *in)
{
    if ((in->op == HB_OP_SET_S || in->op == HB_OP_RAMP_S) && (chk->flags & HB_FLAG_SHARP) == 0) {
        return HB_ERR_NO_SHARP_CHANNEL;
    }
    if (chk->streamed && (in->op == HB_OP_LOOP || in->op == HB_OP_ENDLOOP)) {
        return HB_ERR_LOOP_IN_STREAM;
    }
    if (in->op == HB_OP_LOOP) {
        if (in->value == 0) {
            return HB_ERR_LOOP_COUNT_ZERO;
        }
        if (chk->depth >= HB_MAX_LOOP_DEPTH) {
            return HB_ERR_LOOP_TOO_DEEP;
        }
    }
    if (in->op == HB_OP_ENDLOOP && chk->depth == 0) {
        return HB_ERR_ENDLOOP_WITHOUT_LOOP;
    }
    return HB_OK;
}

hb_err hb_check_instr(hb_check *chk, const hb_instr *in, uint32_t end_offset)
{
    hb_err err = instruction_rules(chk, in);
    if (err != HB_OK) {
        return err;
    }
    if (in->delay > TIME_MAX - chk->time) {
        return HB_ERR_TICKS_OVERFLOW;
    }
    chk->time += in->delay;
    if (chk->time > chk->total_ticks) {
        return HB_ERR_TICKS_MISMATCH;
    }
    if (in->op == HB_OP_ENDLOOP) {
        /* the loop lasts `count` iterations of `period` ticks after its LOOP's time */
        uint8_t top = (uint8_t)(chk->depth - 1u);
        uint32_t start = chk->loop_start[top];
        uint32_t period = chk->time - start;
        uint8_t count = chk->loop_count[top];
        chk->depth = top;
        if (period == 0) {
            return HB_ERR_LOOP_EMPTY;
        }
        if (period > (TIME_MAX - start) / count) {
            return HB_ERR_TICKS_OVERFLOW;
        }
        chk->time = start + period * count;
        if (chk->time > chk->total_ticks) {
            return HB_ERR_TICKS_MISMATCH;
        }
    }
    chk->run = in->delay == 0 ? (uint8_t)(chk->run + 1u) : 1u;
    if (chk->run > HB_MAX_RUN) {
        return HB_ERR_RUN_TOO_LONG;
    }
    if (in->op == HB_OP_END) {
        if (chk->depth != 0) {
            return HB_ERR_LOOP_UNTERMINATED;
        }
        if (end_offset != chk->body_length) {
            return HB_ERR_END_NOT_LAST;
        }
        if (chk->time != chk->total_ticks) {
            return HB_ERR_TICKS_MISMATCH;
        }
    }
    if (in->op == HB_OP_LOOP) {
        chk->loop_start[chk->depth] = chk->time;
        chk->loop_count[chk->depth] = in->value;
        chk->depth++;
    }
    return HB_OK;
}

/* `body_crc` is the body's CRC when the caller already has it, else NULL; `yield` (may be NULL)
 * runs after every instruction. */
static hb_err validate(const uint8_t *program, uint32_t length, const hb_config *cfg, hb_header *header,
                       const uint16_t *body_crc, hb_yield_fn yield, void *ctx)
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
    crc = body_crc != NULL ? *body_crc : hb_crc16(HB_CRC16_INIT, program + HB_HEADER_SIZE, (size_t)header->body_length);
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
