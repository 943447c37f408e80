/* Slots and the stream of the 3.0 device: UPLOAD, COMMIT and STREAM_OPEN are 2.0's (2.7, 2.10)
 * with format 3 programs (PROTOCOL-3.md 3.1) and 3.3's busy slots. COMMIT keeps each slot's peak.
 *
 * TODO(h2-format3): format 3's header rule 3 and rule (f) are checked here, around 2.0's
 * validator, until hb_validate.c takes a format (branch h2-format3). Then: format3_validate's
 * body becomes that validator called with format 3 (it returns 31 and the peak), format3_header
 * becomes hb_header_parse with format 3, and closed_loops_and_peak goes. */
#include <string.h>

#include "hb_crc16.h"
#include "hb_device3_private.h"
#include "hb_program.h"
#include "hb_validate.h"

#define NONE 0xFFFFFFFFu    /* no instruction on that channel yet */
#define FAR_END 0xFFFFFFFEu /* an end beyond any period (a sum that would overflow) */

static uint32_t add_end(uint32_t a, uint32_t b)
{
    return a >= FAR_END || b >= FAR_END || a + b < a || a + b >= FAR_END ? FAR_END : a + b;
}

/* One open loop of rule (f)'s pass: its start, count, and the relative ends of its last A and S
 * instructions and of its longest pulse (NONE: none). */
typedef struct {
    uint32_t start;
    uint32_t end[3];
    uint8_t count;
} open_loop;

/* 3.1 rule (f) in one pass over a body that passed rules 1-30 (error 31 if a loop is not closed),
 * and the peak: the validator's largest run, a jump's run with the head it jumps to, and the
 * restart's run at END with `first`. */
static hb_err closed_loops_and_peak(const uint8_t *body, const hb_header *header, uint8_t *peak)
{
    const uint8_t *start = body, *end = body + header->body_length;
    open_loop stack[HB_MAX_LOOP_DEPTH];
    uint8_t depth = 0, best = 0;
    uint32_t t = 0;
    hb_check chk;
    hb_check_init(&chk, header, 0);
    for (;;) {
        hb_instr in;
        uint8_t n = hb_instr_decode_bytes(body, end, &in), i;
        if (n > HB_MAX_INSTR_BYTES || hb_check_instr(&chk, &in, (uint32_t)(body + n - start)) != HB_OK) {
            return n > HB_MAX_INSTR_BYTES ? n : HB_ERR_RUN_TOO_LONG; /* cannot happen: validated */
        }
        body += n;
        best = chk.run > best ? chk.run : best;
        t += in.delay;
        if (in.op == HB_OP_END) {
            if (header->total_ticks != 0u && (uint8_t)(chk.run + chk.first) > best) {
                best = (uint8_t)(chk.run + chk.first);
            }
            *peak = best;
            return HB_OK;
        }
        if (in.op == HB_OP_LOOP) {
            stack[depth].start = t;
            stack[depth].count = in.value;
            stack[depth].end[0] = stack[depth].end[1] = stack[depth].end[2] = NONE;
            depth++;
        } else if (in.op == HB_OP_ENDLOOP) {
            open_loop *l = &stack[--depth];
            uint32_t period = t - l->start;
            if (l->count >= 2u && (uint8_t)(chk.run + chk.loop_head[depth]) > best) {
                best = (uint8_t)(chk.run + chk.loop_head[depth]);
            }
            for (i = 0; i < 3u; i++) {
                if (l->end[i] != NONE && l->end[i] > period) {
                    return HB_ERR3_LOOP_NOT_CLOSED;
                }
            }
            t = l->start + period * l->count;
            if (depth != 0u) { /* moved to the enclosing loop, at the inner loop's last iteration */
                open_loop *o = &stack[depth - 1u];
                uint32_t shift = add_end(l->start - o->start, period * (uint32_t)(l->count - 1u));
                for (i = 0; i < 3u; i++) {
                    if (l->end[i] != NONE) {
                        uint32_t moved = add_end(l->end[i], shift);
                        o->end[i] = i < 2u || o->end[i] == NONE || moved > o->end[i] ? moved : o->end[i];
                    }
                }
            }
        } else if (depth != 0u) {
            open_loop *l = &stack[depth - 1u];
            uint32_t rel = t - l->start;
            if (in.op == HB_OP_PULSE) {
                uint32_t e = rel + hb_pulse_length(in.sharp);
                l->end[2] = l->end[2] == NONE || e > l->end[2] ? e : l->end[2];
            } else { /* SET_x, RAMP_x: bit 1 the channel, bit 0 a ramp */
                l->end[(in.op & 2u) ? 1u : 0u] = (in.op & 1u) ? add_end(rel, in.dur) : rel;
            }
        }
    }
}

/* Header rules 1-5 with version 3 (3.1: "version is not 3: error 3"): 2.0's parse of a copy with
 * 2.0's version byte. */
static hb_err format3_header(const uint8_t *bytes, uint32_t length, const hb_config *cfg, hb_header *header)
{
    uint8_t copy[HB_HEADER_SIZE];
    hb_err err;
    if (length < HB_HEADER_SIZE) {
        return hb_header_parse(bytes, length, cfg, header);
    }
    memcpy(copy, bytes, HB_HEADER_SIZE);
    if (copy[0] == HB_MAGIC_0 && copy[1] == HB_MAGIC_1) {
        copy[2] = copy[2] == HB_FORMAT3_VERSION ? HB_FORMAT_VERSION : 0u;
    }
    err = hb_header_parse(copy, HB_HEADER_SIZE, cfg, header);
    header->version = bytes[2];
    return err;
}

/* Rules 1-30 with version 3, then rule (f); the peak. The slot's version byte reads 2 while 2.0's
 * validator runs (the slot is not busy: nothing plays it meanwhile) and 3 again after. */
static hb_err format3_validate(hb_device3 *d, uint8_t slot, uint32_t length, hb_header *header, uint8_t *peak)
{
    hb_device *dev = &d->dev;
    uint8_t *program = hb_dev_slot_bytes(dev, slot);
    hb_err err = format3_header(program, length, &dev->cfg->core, header);
    if (err != HB_OK) {
        return err;
    }
    program[2] = HB_FORMAT_VERSION;
    err = hb_program_validate_with_crc(program, length, &dev->cfg->core, header,
                                       length > HB_HEADER_SIZE ? dev->slots[slot].body_crc : HB_CRC16_INIT,
                                       dev->yield, dev->ctx);
    program[2] = HB_FORMAT3_VERSION;
    header->version = HB_FORMAT3_VERSION;
    return err != HB_OK ? err : closed_loops_and_peak(program + HB_HEADER_SIZE, header, peak);
}

void hb_dev3_slot_header(const hb_device3 *d, uint8_t slot, hb_header *header)
{
    /* committed: rules 1-5 passed */
    hb_err err = format3_header(hb_dev_slot_bytes(&d->dev, slot), HB_HEADER_SIZE, &d->dev.cfg->core, header);
    (void)err;
}

/* A slot is busy while a PENDING or PLAYING player has it (3.3). */
static uint8_t slot_busy(const hb_device3 *d, const uint8_t *p, uint8_t n, uint8_t length)
{
    uint8_t i;
    if (n < length || p[0] >= d->dev.cfg->slot_count) {
        return 0; /* 2.0's checks come first */
    }
    for (i = 0; i < d->cfg->players; i++) {
        if (hb_dev3_live(&d->players[i]) && d->players[i].slot == p[0]) {
            return 1;
        }
    }
    return 0;
}

reply hb_dev3_cmd_upload(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    if (slot_busy(d, p, n, HB_LEN_UPLOAD)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    return hb_dev_cmd_upload(&d->dev, p, n);
}

reply hb_dev3_cmd_commit(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    hb_header header;
    hb_err err;
    uint8_t peak = 0;
    reply r;
    if (slot_busy(d, p, n, HB_LEN_COMMIT)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    r = hb_dev_commit_checks(&d->dev, p, n);
    if (r.code != 0u) {
        return r;
    }
    err = format3_validate(d, p[0], r.value, &header, &peak);
    if (err != HB_OK) {
        hb_dev_slot_empty(&d->dev, p[0]);
        return hb_dev_nack(err, 0);
    }
    d->dev.slots[p[0]].ready = 1;
    d->slot_peak[p[0]] = peak;
    return hb_dev_ack(header.total_ticks);
}

reply hb_dev3_cmd_stream_open(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    uint8_t copy[HB_LEN_STREAM_OPEN];
    uint8_t i, length = n < HB_LEN_STREAM_OPEN ? n : (uint8_t)HB_LEN_STREAM_OPEN;
    if (n >= HB_LEN_STREAM_OPEN && d->dev.cfg->stream_capacity != 0u) {
        for (i = 0; i < d->cfg->players; i++) {
            if (d->players[i].state == HB_PLAYER_PENDING && d->players[i].slot == HB_STREAM_SLOT) {
                return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
            }
        }
    }
    /* 2.0's STREAM_OPEN on a copy whose header 2.0's rules read as format 3's (the stored header
     * then plays on 2.0's interpreter: the body and its CRC are the same) */
    memcpy(copy, p, length);
    if (length == HB_LEN_STREAM_OPEN && copy[0] == HB_MAGIC_0 && copy[1] == HB_MAGIC_1) {
        copy[2] = copy[2] == HB_FORMAT3_VERSION ? HB_FORMAT_VERSION : 0u;
    }
    return hb_dev_cmd_stream_open(&d->dev, copy, length);
}
