/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* Stack painting: the free RAM between the end of the static data and the top of RAM is filled
 * with a pattern before the firmware runs, and the lowest byte that no longer holds it is the
 * deepest the stack (or a heap) has reached. A measurement, not an estimate: every push, call and
 * interrupt frame the simulated run made is in it. (A byte the firmware wrote with the pattern's
 * own value at the very bottom would go unseen: the figure is good to that byte.) */
#include <string.h>

#include "avr_stack_paint.h"
#include "harness_internal.h"

/* The first byte above the static data: the linker script's _end (after .data, .bss and .noinit;
 * always defined, where __heap_start is only PROVIDEd to code that uses it), else __heap_start,
 * else __bss_end; -1 when the ELF has none of them. */
static int32_t free_ram_start(const hb_avr *board)
{
    static const char *const names[] = {"_end", "__heap_start", "__bss_end"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        int32_t start = hb_avr_symbol_address(board, names[i]);
        if (start >= 0) {
            return start;
        }
    }
    return -1;
}

int32_t hb_avr_stack_paint(hb_avr *board)
{
    int32_t start = free_ram_start(board);
    uint32_t end = board->avr->ramend;
    if (start < 0 || (uint32_t)start > end) {
        return -1;
    }
    memset(&board->avr->data[start], HB_AVR_STACK_PAINT, end + 1u - (uint32_t)start);
    return (int32_t)(end + 1u - (uint32_t)start);
}

int32_t hb_avr_stack_free_min(const hb_avr *board)
{
    int32_t start = free_ram_start(board);
    uint32_t end = board->avr->ramend;
    if (start < 0 || (uint32_t)start > end) {
        return -1;
    }
    uint32_t address = (uint32_t)start;
    while (address <= end && board->avr->data[address] == HB_AVR_STACK_PAINT) {
        address++;
    }
    return (int32_t)(address - (uint32_t)start);
}

#endif /* HB_EMULATOR */
