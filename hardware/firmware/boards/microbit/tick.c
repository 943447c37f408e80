/* TIMER0 (nRF51 RM 18): MODE timer, BITMODE 32, PRESCALER 0 (16 MHz); CC[0] is the next tick's
 * count, CC[1] a capture of the count now. */
#include "tick.h"

#include "nrf51.h"

static volatile uint32_t ticks;
/* The count of the next tick: compare 0 holds it. */
static volatile uint32_t due = HB_TIMER_COUNTS_PER_TICK;

void hb_tick_init(void)
{
    HB_REG(TIMER0_BASE, TIMER_MODE) = 0u;
    HB_REG(TIMER0_BASE, TIMER_BITMODE) = TIMER_BITMODE_32;
    HB_REG(TIMER0_BASE, TIMER_PRESCALER) = 0u;
    HB_REG(TIMER0_BASE, TIMER_TASKS_CLEAR) = 1u;
    HB_REG(TIMER0_BASE, TIMER_CC(0)) = due;
    HB_REG(TIMER0_BASE, TIMER_EVENTS_COMPARE(0)) = 0u;
    HB_REG(TIMER0_BASE, TIMER_INTENSET) = TIMER_INTEN_COMPARE0;
    NVIC_ISER = 1u << TIMER0_IRQ;
    HB_REG(TIMER0_BASE, TIMER_TASKS_START) = 1u;
}

uint32_t hb_tick_now(void)
{
    HB_REG(TIMER0_BASE, TIMER_TASKS_CAPTURE(1)) = 1u;
    return HB_REG(TIMER0_BASE, TIMER_CC(1));
}

/* Ticks come from the grid, not from matches: every grid point the count has reached is a tick,
 * however late the interrupt runs (a host that stalls QEMU, a long critical section), and a match
 * with no grid point passed counts nothing. The compare goes to the first grid point after the
 * count, and the count is read again after the write: a compare that the count passed before it
 * took effect would next match only when the 32-bit count wraps, 268 s on (RM 18: COMPARE comes
 * when the counter becomes equal to CC), and the board's clock would stop until then. */
void hb_tick_irq(void)
{
    HB_REG(TIMER0_BASE, TIMER_EVENTS_COMPARE(0)) = 0u;
    uint32_t now = hb_tick_now();
    do {
        while ((int32_t)(now - due) >= 0) {
            due += HB_TIMER_COUNTS_PER_TICK;
            ticks++;
        }
        HB_REG(TIMER0_BASE, TIMER_CC(0)) = due;
        now = hb_tick_now();
    } while ((int32_t)(now - due) >= 0);
}

uint32_t hb_tick_count(void)
{
    return ticks;
}

uint16_t hb_tick_subtick(void)
{
    uint32_t into = hb_tick_now() - (due - HB_TIMER_COUNTS_PER_TICK);
    if (into >= HB_TIMER_COUNTS_PER_TICK) into = HB_TIMER_COUNTS_PER_TICK - 1u;
    return (uint16_t)((into << 16) / HB_TIMER_COUNTS_PER_TICK);
}

/* A one-shot TIMER1 compare HB_TICK_NAP_COUNTS on wakes the WFI; one that fires before the WFI
 * still does, as interrupts are masked until after it. */
void hb_tick_nap(void)
{
    __asm__ volatile("cpsid i" ::: "memory");
    HB_REG(TIMER1_BASE, TIMER_BITMODE) = TIMER_BITMODE_32;
    HB_REG(TIMER1_BASE, TIMER_SHORTS) = TIMER_SHORTS_COMPARE0_STOP;
    HB_REG(TIMER1_BASE, TIMER_CC(0)) = HB_TICK_NAP_COUNTS;
    HB_REG(TIMER1_BASE, TIMER_INTENSET) = TIMER_INTEN_COMPARE0;
    NVIC_ISER = 1u << TIMER1_IRQ;
    HB_REG(TIMER1_BASE, TIMER_TASKS_CLEAR) = 1u;
    HB_REG(TIMER1_BASE, TIMER_TASKS_START) = 1u;
    __asm__ volatile("wfi");
    __asm__ volatile("cpsie i" ::: "memory");
}

void hb_tick_nap_irq(void)
{
    HB_REG(TIMER1_BASE, TIMER_EVENTS_COMPARE(0)) = 0u;
}
