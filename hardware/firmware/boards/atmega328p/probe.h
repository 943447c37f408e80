/* Cycle probes: the firmware marks code regions by setting and clearing bits of GPIOR0, a
 * general-purpose I/O register that nothing else uses. `sbi`/`cbi` take 2 cycles and no
 * register, so the cost of probing is fixed and tiny. The simulator harness watches writes
 * to GPIOR0 and charges the cycles between set and clear to the region (minus the cycles
 * spent in interrupt handlers meanwhile, which it measures separately from the program
 * counter). On real hardware the writes are harmless. */
#ifndef HB_PROBE_H
#define HB_PROBE_H

#include <avr/io.h>

#define HB_PROBE_TICK 0    /* device step and hand-off to the output stage (the deadline-bound part) */
#define HB_PROBE_PROTO 1   /* protocol handler: draining the RX ring, handling frames */
#define HB_PROBE_OUTPUT 2  /* output stage work in the main loop (DRV2605L bus writes) */
#define HB_PROBE_NOTICES 3 /* after the hand-off: encoding and sending the step's notices */
#define HB_PROBE_UART 4    /* polled receive: masking the RX interrupt, reading a byte */
#define HB_PROBE_FRAME 5   /* a frame's final 0x00 handled: the tick its effect lands (trace replay) */

#define HB_PROBE_ON(bit)                       \
    do {                                       \
        __asm__ __volatile__("" ::: "memory"); \
        GPIOR0 |= (uint8_t)(1u << (bit));      \
        __asm__ __volatile__("" ::: "memory"); \
    } while (0)
#define HB_PROBE_OFF(bit)                      \
    do {                                       \
        __asm__ __volatile__("" ::: "memory"); \
        GPIOR0 &= (uint8_t)(~(1u << (bit)));   \
        __asm__ __volatile__("" ::: "memory"); \
    } while (0)

#endif
