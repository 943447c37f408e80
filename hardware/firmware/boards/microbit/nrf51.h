/* The few nRF51 registers this port uses (nRF51 Series Reference Manual v3.0: 29 UART, 18 TIMER;
 * nRF51822 Product Specification v3.1, table 9 for the base addresses and interrupt numbers), and
 * the Cortex-M0 NVIC. Offsets are in bytes from each peripheral's base. */
#ifndef HB_NRF51_H
#define HB_NRF51_H

#include <stdint.h>

#define HB_REG(base, offset) (*(volatile uint32_t *)((uintptr_t)(base) + (offset)))

/* UART0: base 0x40002000, interrupt 2. */
#define UART0_BASE 0x40002000u
#define UART0_IRQ 2u
#define UART_TASKS_STARTRX 0x000u
#define UART_TASKS_STARTTX 0x008u
#define UART_EVENTS_RXDRDY 0x108u
#define UART_EVENTS_TXDRDY 0x11Cu
#define UART_EVENTS_ERROR 0x124u
#define UART_INTENSET 0x304u
#define UART_INTENCLR 0x308u
#define UART_INTEN_RXDRDY (1u << 2)
#define UART_ERRORSRC 0x480u
#define UART_ENABLE 0x500u
#define UART_ENABLE_ENABLED 4u
#define UART_PSELTXD 0x50Cu
#define UART_PSELRXD 0x514u
#define UART_RXD 0x518u
#define UART_TXD 0x51Cu
#define UART_BAUDRATE 0x524u
/* BAUDRATE for 1 Mbaud (29.8.18); the micro:bit's interface chip forwards it over USB. */
#define UART_BAUDRATE_1M 0x10000000u
/* The micro:bit v1 routes UART0 to the interface chip on P0.24 (TX) and P0.25 (RX). */
#define MICROBIT_PIN_TX 24u
#define MICROBIT_PIN_RX 25u

/* TIMER0: base 0x40008000, interrupt 8; 16 MHz with PRESCALER 0. */
#define TIMER0_BASE 0x40008000u
#define TIMER0_IRQ 8u
#define TIMER_TASKS_START 0x000u
#define TIMER_TASKS_STOP 0x004u
#define TIMER_TASKS_CLEAR 0x00Cu
#define TIMER_TASKS_CAPTURE(n) (0x040u + 4u * (n))
#define TIMER_EVENTS_COMPARE(n) (0x140u + 4u * (n))
#define TIMER_INTENSET 0x304u
#define TIMER_INTEN_COMPARE0 (1u << 16)
#define TIMER_MODE 0x504u
#define TIMER_BITMODE 0x508u
#define TIMER_BITMODE_32 3u
#define TIMER_PRESCALER 0x510u
#define TIMER_CC(n) (0x540u + 4u * (n))
#define TIMER_HZ 16000000u
#define TIMER_SHORTS 0x200u
#define TIMER_SHORTS_COMPARE0_STOP (1u << 8)
/* TIMER1: base 0x40009000, interrupt 9 (the lockstep gate's naps, main.c). */
#define TIMER1_BASE 0x40009000u
#define TIMER1_IRQ 9u

/* Cortex-M0 NVIC (ARMv6-M ARM, B3.4). */
#define NVIC_ISER (*(volatile uint32_t *)0xE000E100u)

#endif
