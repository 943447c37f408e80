/* Reset and vectors for the nRF51822 (Cortex-M0): the C runtime's start (copy .data, zero .bss),
 * then main. Interrupts: UART0 (2), TIMER0 (8) and TIMER1 (9); every other vector stops the board. */
#include <stdint.h>

extern uint32_t __data_load, __data_start, __data_end, __bss_start, __bss_end, __stack_top;
extern int main(void);
void hb_uart_irq(void);
void hb_tick_irq(void);
void hb_tick_nap_irq(void);

void hb_reset(void) __attribute__((noreturn));
void hb_stop(void);

void hb_reset(void)
{
    const uint32_t *from = &__data_load;
    for (uint32_t *to = &__data_start; to < &__data_end;) *to++ = *from++;
    for (uint32_t *to = &__bss_start; to < &__bss_end;) *to++ = 0u;
    (void)main();
    for (;;) {
    }
}

/* A fault or an unexpected interrupt: no further steps, so no output changes; the harness sees
 * the records stop (a real board would reset through its watchdog here). */
void hb_stop(void)
{
    for (;;) {
    }
}

/* 16 system vectors (stack, reset, NMI, HardFault, ...), then the 32 interrupts: UART0 at 16 + 2,
 * TIMER0 at 16 + 8. */
typedef void (*hb_vector)(void);
/* clang-format off */
__attribute__((section(".vectors"), used)) static const hb_vector vectors[16 + 32] = {
    (hb_vector)(uintptr_t)&__stack_top, hb_reset, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop,
    hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop,
    hb_stop, hb_stop, hb_uart_irq, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop,    /* interrupts 0-7 */
    hb_tick_irq, hb_tick_nap_irq, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, /* 8-15 */
    hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop,        /* 16-23 */
    hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop, hb_stop,        /* 24-31 */
};
/* clang-format on */
