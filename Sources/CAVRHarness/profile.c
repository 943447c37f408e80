/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* Cycle profiling, breakpoint-free.
 *
 * Interrupt handlers: after every instruction the run loop reports the program counter.
 * Landing on a vector-table slot (other than reset) means simavr just took that interrupt;
 * executing RETI ends it. The handler's cost is the cycles in between plus the 4-cycle
 * interrupt response that simavr does not charge. Handlers do not nest in this firmware.
 *
 * Main-loop regions: the firmware sets and clears GPIOR0 bits around them (probe.h). A
 * region's cost is the cycles between set and clear minus the handler cycles that ran
 * inside it.
 *
 * Costs are summed per tick window (window = 16,000 cycles at 16 MHz) to give the worst tick;
 * totals over the measurement interval give the mean. Windows are aligned to the firmware's tick
 * boundaries (from the cycle its tick timer started), so each holds exactly one tick's work: with
 * windows counted from cycle 0 instead, a tick's step could straddle two windows and a window
 * could hold parts of two steps. */
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

static uint64_t window_of(const hb_profile *p, uint64_t cycle)
{
    return cycle >= p->origin ? (cycle - p->origin) / p->window : 0;
}

static uint32_t group_sum(const hb_profile *p)
{
    uint32_t sum = 0;
    for (int i = 0; i < HB_AVR_PROFILE_CATEGORIES; i++) {
        if (p->group_mask & ((uint64_t)1 << i)) {
            sum += p->current[i];
        }
    }
    return sum;
}

static void fold_window(hb_profile *p)
{
    uint32_t group = group_sum(p);
    if (group > p->group_max) {
        p->group_max = group;
    }
    for (int i = 0; i < HB_AVR_PROFILE_CATEGORIES; i++) {
        if (p->current[i] > p->entries[i].max_per_tick) {
            p->entries[i].max_per_tick = p->current[i];
        }
        p->current[i] = 0;
    }
}

static void charge(hb_avr *board, int category, uint64_t cycles)
{
    hb_profile *p = &board->profile;
    uint64_t now = board->avr->cycle;
    if (now < p->interval_start) {
        return;
    }
    uint64_t window = window_of(p, now);
    if (window != p->window_index) {
        fold_window(p);
        p->window_index = window;
    }
    p->current[category] += (uint32_t)cycles;
    hb_avr_profile_entry *e = &p->entries[category];
    e->total_cycles += cycles;
    e->calls++;
    if (cycles > e->max_single) {
        e->max_single = (uint32_t)cycles;
    }
}

void hb_profile_init(hb_avr *board)
{
    memset(&board->profile, 0, sizeof board->profile);
    board->profile.window = board->avr->frequency / 1000u;
    board->profile.current_vector = -1;
    board->profile.pc_words = (board->avr->flashend + 1u) / 2u;
    board->profile.pc_cycles = calloc(board->profile.pc_words, sizeof *board->profile.pc_cycles);
}

void hb_profile_free(hb_avr *board)
{
    free(board->profile.pc_cycles);
}

size_t hb_avr_pc_cycles(const hb_avr *board, uint64_t *out, size_t capacity)
{
    size_t n = board->profile.pc_words < capacity ? board->profile.pc_words : capacity;
    if (board->profile.pc_cycles) {
        memcpy(out, board->profile.pc_cycles, n * sizeof *out);
    }
    return n;
}

void hb_avr_profile_reset(hb_avr *board)
{
    hb_profile *p = &board->profile;
    memset(p->entries, 0, sizeof p->entries);
    memset(p->current, 0, sizeof p->current);
    p->group_max = 0;
    p->interval_start = board->avr->cycle;
    p->window_index = window_of(p, board->avr->cycle);
    if (p->pc_cycles) {
        memset(p->pc_cycles, 0, p->pc_words * sizeof *p->pc_cycles);
    }
}

void hb_profile_probe_write(hb_avr *board, uint8_t value)
{
    hb_profile *p = &board->profile;
    uint64_t now = board->avr->cycle;
    uint8_t changed = (uint8_t)(value ^ p->probe_bits);
    for (int bit = 0; bit < 8; bit++) {
        if (!(changed & (1u << bit))) {
            continue;
        }
        if (value & (1u << bit)) {
            p->probe_start[bit] = now;
            p->probe_isr_mark[bit] = p->isr_total;
        } else {
            uint64_t inside_isrs = p->isr_total - p->probe_isr_mark[bit];
            uint64_t span = now - p->probe_start[bit];
            charge(board, bit, span > inside_isrs ? span - inside_isrs : 0);
        }
    }
    p->probe_bits = value;
}

void hb_profile_step(hb_avr *board, uint32_t pc_before, uint16_t opcode, uint64_t cycles)
{
    hb_profile *p = &board->profile;
    avr_t *avr = board->avr;
    if (p->pc_cycles && pc_before / 2u < p->pc_words) {
        p->pc_cycles[pc_before / 2u] += cycles;
    }
    if (p->current_vector >= 0 && opcode == HB_RETI_OPCODE) {
        uint64_t cycles = avr->cycle - p->vector_entry + HB_INTERRUPT_RESPONSE_CYCLES;
        p->isr_total += cycles;
        charge(board, HB_AVR_PROFILE_VECTOR(p->current_vector), cycles);
        p->current_vector = -1;
    }
    uint32_t pc = avr->pc;
    uint32_t slot = avr->vector_size ? avr->vector_size : 4u;
    if (p->current_vector < 0 && pc != pc_before && pc != 0 && pc < HB_VECTOR_COUNT * slot
        && pc % slot == 0) {
        p->current_vector = (int)(pc / slot);
        p->vector_entry = avr->cycle;
    }
}

hb_avr_profile_entry hb_avr_profile_get(const hb_avr *board, int category)
{
    hb_avr_profile_entry e = {0};
    if (category < 0 || category >= HB_AVR_PROFILE_CATEGORIES) {
        return e;
    }
    const hb_profile *p = &board->profile;
    e = p->entries[category];
    if (p->current[category] > e.max_per_tick) { /* the window still being filled */
        e.max_per_tick = p->current[category];
    }
    return e;
}

uint64_t hb_avr_profile_ticks(const hb_avr *board)
{
    return (board->avr->cycle - board->profile.interval_start) / board->profile.window;
}

uint32_t hb_avr_profile_window(const hb_avr *board)
{
    return board->profile.window;
}

void hb_avr_profile_set_group(hb_avr *board, uint64_t categories)
{
    board->profile.group_mask = categories;
}

uint32_t hb_avr_profile_group_worst(const hb_avr *board)
{
    uint32_t current = group_sum(&board->profile); /* the window still being filled */
    return current > board->profile.group_max ? current : board->profile.group_max;
}

void hb_profile_set_origin(hb_avr *board, uint64_t cycle)
{
    hb_profile *p = &board->profile;
    fold_window(p);
    p->origin = cycle;
    p->window_index = window_of(p, board->avr->cycle);
}

#endif /* HB_EMULATOR */
