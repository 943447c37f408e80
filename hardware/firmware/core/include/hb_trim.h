/* The tick trim of protocol 3.0 (firmware-protocol/PROTOCOL-3.md 3.10): a board whose tick is a
 * timer of P counts makes tick k last P - delta counts, delta from an accumulator of P * tau ppm,
 * so that its ticks are on average tau ppm shorter, exact to one count over any stretch. Pure
 * arithmetic: the board applies delta to its timer (its compare value). */
#ifndef HB_TRIM_H
#define HB_TRIM_H

#include <stdint.h>

#define HB_TRIM_MAX_PPM 10000 /* |tau| at most 1 % (3.10) */

typedef struct hb_trim {
    int32_t acc; /* 0 <= acc < 10^6 between ticks; kept across trim changes */
} hb_trim;

/* At boot: acc = 0. */
void hb_trim_init(hb_trim *trim);

/* 1 when `ppm` is a trim SET_CONFIG key 4 accepts (-10,000..10,000). */
uint8_t hb_trim_valid(int32_t ppm);

/* The next tick's delta, with the trim `ppm` in force (valid) and a nominal period of `period`
 * counts (a timer's, or the virtual device's nanoseconds): acc += period * ppm; delta =
 * floor(acc / 10^6); acc -= delta * 10^6, exactly, with no 64-bit product. The tick lasts
 * period - delta counts; |delta| <= ceil(period * |ppm| / 10^6). */
int32_t hb_trim_tick(hb_trim *trim, uint32_t period, int16_t ppm);

#endif
