/* Stack painting (stack_paint.c): the deepest the firmware's stack reached, measured. */
#ifndef HB_AVR_STACK_PAINT_H
#define HB_AVR_STACK_PAINT_H

#include <stdint.h>

#include "avr_harness.h"

/* The pattern the free RAM is painted with. */
#define HB_AVR_STACK_PAINT 0xA5u

/* Paints the RAM from the end of the static data (_end, __heap_start or __bss_end) to the top with the
 * pattern: call it before the firmware runs. Returns the bytes painted, -1 without the symbols. */
int32_t hb_avr_stack_paint(hb_avr *board);
/* Bytes above the static data that still hold the pattern: the least free RAM the stack has left
 * since the paint. -1 without the symbols. */
int32_t hb_avr_stack_free_min(const hb_avr *board);

#endif
