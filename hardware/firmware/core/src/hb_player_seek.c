/* Seek (PROTOCOL-3.md 3.5): a player's interpreter in the state at program tick k, at a cost in
 * instructions, never in ticks. The walk plays the program from its start with 2.0's interpreter,
 * one hb_interp_step per tick that has instructions due, and crosses everything else in closed
 * form:
 * - the ticks between two instruction times: the delay's countdown, the running ramps (1.9's
 *   Bresenham state advanced n times at once) and the pulse voices;
 * - whole loop iterations: once a loop has done s = max(1, ceil(20 / P)) iterations, rule (f)
 *   makes the state at each later iteration boundary the same but for time, so up to the last
 *   boundary before k the iterations are skipped: the count left, the channels the body does not
 *   touch (advanced j * P ticks in closed form) and the tick move; nothing else changes.
 * The cost is then 3.5's X(program): executions and one pass over each skipped loop's body (to
 * find the channels it touches). Exact only for programs that meet rule (f), which a format 3
 * COMMIT guarantees. */
#include <stddef.h>

#include "hb_interp_private.h"
#include "hb_player.h"

#define PULSE_MAX 20u /* the longest pulse (1.10) */

/* The ramp state after n more advances (n >= 1) without per-tick work: the displacement is
 * n * q + the carries of the remainder, floor((err + n * r) / D); it ends at the target. */
static void ramp_skip(hb_channel *c, uint32_t n)
{
    uint8_t down = (uint8_t)(c->target < c->value);
    uint8_t needed = down ? (uint8_t)(c->value - c->target) : (uint8_t)(c->target - c->value);
    uint32_t moved = 0;
    if (c->ramp == HB_RAMP_SHORT) {
        uint8_t d = (uint8_t)(c->t.thr8 + c->rem); /* D <= 255 */
        uint8_t q = down ? (uint8_t)(0u - c->step) : c->step;
        if (n < d) { /* 16-bit: n < 255, sum <= 254 + 254 * 254, moved <= n * (q + 1) <= 254 * 256 */
            uint8_t k = (uint8_t)n;
            uint16_t sum = (uint16_t)(c->e.err8 + (uint16_t)k * c->rem);
            moved = (uint16_t)((uint16_t)k * q + sum / d);
            c->e.err8 = (uint8_t)(sum % d);
        }
        if (n >= d || moved >= needed) {
            moved = needed;
        }
    } else { /* long: q = 0, at most 255 carries, each found with one division */
        uint32_t err = c->e.err;
        while (n != 0u && moved < needed) {
            uint32_t m = err >= c->t.thr ? 1u : 1u + (c->t.thr - err + c->rem - 1u) / c->rem;
            if (m > n) {
                err += n * c->rem; /* < thr + rem = D < 2^28 */
                break;
            }
            err = err + (m - 1u) * c->rem - c->t.thr;
            moved++;
            n -= m;
        }
        c->e.err = err;
    }
    c->value = down ? (uint8_t)(c->value - moved) : (uint8_t)(c->value + moved);
    if (c->value == c->target) {
        c->ramp = HB_RAMP_NONE;
    }
}

static void channel_skip(hb_channel *c, uint32_t n)
{
    if (c->ramp == HB_RAMP_SHORT || c->ramp == HB_RAMP_LONG) {
        ramp_skip(c, n);
    }
}

/* n ticks with nothing due (n <= the countdown): ramps, voices, countdown and tick, at once. */
static void skip_ticks(hb_interp_play *it, uint32_t n)
{
    uint32_t wait = ((uint32_t)it->wait_high << 16 | it->wait) - n;
    uint8_t i, kept = 0;
    channel_skip(&it->amp, n);
    channel_skip(&it->sharp, n);
    for (i = 0; i < it->voice_count; i++) {
        if (it->voices[i].left > n) {
            it->voices[kept] = it->voices[i];
            it->voices[kept].left = (uint8_t)(it->voices[i].left - n);
            kept++;
        }
    }
    it->voice_count = kept;
    it->wait = (uint16_t)wait;
    it->wait_high = (uint16_t)(wait >> 16);
    it->tick += n;
}

/* Which channels a loop's body touches (bit 0 amplitude, bit 1 sharpness), from its first body
 * byte to its ENDLOOP; adds the instructions decoded to *cost. */
static uint8_t body_touches(const hb_interp_play *it, const uint8_t *pc, uint32_t *cost)
{
    uint8_t touched = 0, nest = 0;
    for (;;) {
        hb_instr in;
        uint8_t n = hb_instr_decode_bytes(pc, it->end, &in);
        if (n > HB_MAX_INSTR_BYTES) {
            return 3u; /* cannot happen on a validated program: touch both, skip nothing wrongly */
        }
        pc += n;
        (*cost)++;
        if (in.op <= HB_OP_RAMP_S) {
            touched = (uint8_t)(touched | ((in.op & 2u) ? 2u : 1u));
        } else if (in.op == HB_OP_LOOP) {
            nest++;
        } else if (in.op == HB_OP_ENDLOOP) {
            if (nest == 0u) {
                return touched;
            }
            nest--;
        } else if (in.op == HB_OP_END) {
            return touched;
        }
    }
}

/* What the walk knows of each open loop: where its body starts, the start of its current
 * iteration, and the iterations it has completed. */
typedef struct {
    const uint8_t *pc[HB_MAX_LOOP_DEPTH];
    uint32_t start[HB_MAX_LOOP_DEPTH];
    uint8_t done[HB_MAX_LOOP_DEPTH];
    uint8_t left[HB_MAX_LOOP_DEPTH];
    uint8_t depth;
} loop_view;

/* After the tick t ran: new loops, and iteration boundaries (a count left that went down); at the
 * outermost boundary past its first s iterations, the whole iterations before k are skipped. */
static void loops_after_tick(hb_interp_play *it, loop_view *v, uint32_t t, uint32_t k, uint32_t *cost)
{
    uint8_t d, skipped = 0;
    for (d = 0; d < it->loop_depth; d++) {
        if (d >= v->depth || it->loop_pc[d] != v->pc[d] || it->loop_left[d] > v->left[d]) {
            v->pc[d] = it->loop_pc[d]; /* entered at t: its LOOP's time is its start */
            v->start[d] = t;
            v->done[d] = 0;
        } else if (it->loop_left[d] < v->left[d]) {
            uint32_t period = t - v->start[d];
            uint32_t settle = (PULSE_MAX + period - 1u) / period;
            v->done[d]++;
            v->start[d] = t;
            if (!skipped && v->done[d] >= settle && it->loop_left[d] != 0u && k - 1u - t >= period) {
                uint32_t j = (k - 1u - t) / period;
                uint8_t touched = body_touches(it, it->loop_pc[d], cost);
                uint8_t inner;
                uint32_t ticks;
                if (j > it->loop_left[d]) {
                    j = it->loop_left[d];
                }
                ticks = j * period;
                if ((touched & 1u) == 0u) {
                    channel_skip(&it->amp, ticks);
                }
                if ((touched & 2u) == 0u) {
                    channel_skip(&it->sharp, ticks);
                }
                it->loop_left[d] = (uint8_t)(it->loop_left[d] - j);
                it->tick += ticks;
                v->done[d] = (uint8_t)(v->done[d] + j);
                for (inner = d; inner < it->loop_depth; inner++) {
                    v->start[inner] += ticks;
                }
                skipped = 1;
            }
        }
        v->left[d] = it->loop_left[d];
    }
    v->depth = it->loop_depth;
}

uint32_t hb_player_seek(hb_player *pl, hb_interp_shared *sh, uint32_t k)
{
    hb_interp_play *it = &pl->it;
    loop_view v;
    uint32_t cost = 0;
    hb_interp_play_restart(sh, it);
    v.depth = 0;
    while (it->tick < k) {
        uint32_t wait = (uint32_t)it->wait_high << 16 | it->wait;
        if (wait != 0u) {
            skip_ticks(it, wait < k - it->tick ? wait : k - it->tick);
        } else {
            uint32_t t = it->tick;
            (void)hb_interp_play_step(sh, it);
            cost += sh->executed;
            loops_after_tick(it, &v, t, k, &cost);
        }
    }
    pl->phi = 0; /* p = k: the interpreter's tick, fresh (hb_player_pos) */
    pl->flags = (uint8_t)(pl->flags | HB_PLAYER_FRESH);
    return cost;
}
