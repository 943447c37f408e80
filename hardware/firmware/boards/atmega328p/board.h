/* ATmega328P board port (Arduino Uno / Nano, 16 MHz crystal): every numeric choice of the
 * port in one place. hardware/README.md explains them; the simulator harness
 * (Sources/AVREmulator) reads the same figures from its own copy and the tests compare. */
#ifndef HB_BOARD_H
#define HB_BOARD_H

#include <stdint.h>

#ifndef F_CPU
#define F_CPU 16000000UL
#endif

/* UART: 8N1 at HB_BAUD with U2X (8 samples per bit). 500 kbaud is exact at 16 MHz
 * (UBRR = 3); 115200 would be 2.1 % off even with U2X. One byte = 10 bit times = 320 cycles. */
/* The actuator profile the board is built for (make PROFILE=<name>): profiles/<name>.h, written by
 * tools/gen-board-profiles from hardware/actuators/<name>.json. */
#ifndef HB_PROFILE_HEADER
#define HB_PROFILE_HEADER "profiles/lra-170hz-10mm.h"
#endif
#include HB_PROFILE_HEADER

/* The H-bridge's motor supply in millivolts (make SUPPLY_MV=...): the PWM stage caps every duty so
 * that duty / 255 x supply never exceeds the profile's voltages. The wiring guide's 5 V. */
#ifndef HB_SUPPLY_MV
#define HB_SUPPLY_MV 5000UL
#endif

#ifndef HB_BAUD
#define HB_BAUD 500000UL
#endif
#define HB_UBRR ((F_CPU + 4UL * HB_BAUD) / (8UL * HB_BAUD) - 1UL)

/* The DRV2605L's EN on Arduino D4 (PD4), with a 10 kOhm pull-down to GND so that it reads low while
 * the pin is an input (reset, the bootloader): low is shutdown, the output off whatever the
 * registers say (TI SLOS854C 8.4.1.3). Driven low from the first instructions (main.c), high once
 * the bus answers, low again on every stage fault and on the watchdog's hard stop. */
#define HB_DRV_EN_DDR DDRD
#define HB_DRV_EN_PORT PORTD
#if defined(HB_BOARD_DRV2605L_X4)
/* The 3.0 image with up to four DRV2605L behind a TCA9548A (output_drv2605l_x4.c): driver c's EN on
 * D(4 + c) (PD4..PD7), each with its own 10 kOhm pull-down; output_drv2605l.c drives the EN of the
 * driver it works on (hb_drv_x4_current). All four low at reset and on the hard stop (main.c). */
extern uint8_t hb_drv_x4_current;
#define HB_DRV_EN_BIT (4u + hb_drv_x4_current)
#define HB_DRV_X4_EN_MASK 0xF0u
#define HB_DRV_X4_ALL_OFF()                            \
    do {                                               \
        HB_DRV_EN_PORT &= (uint8_t)~HB_DRV_X4_EN_MASK; \
        HB_DRV_EN_DDR |= HB_DRV_X4_EN_MASK;            \
    } while (0)
/* The TCA9548A at 0x70 (A2..A0 to GND; SCPS207F 8.6.1), its RESET tied high (pull-up); driver c
 * behind its port c. */
#define HB_MUX_ADDRESS 0x70u
#else
#define HB_DRV_EN_BIT 4
#endif

/* The bootloader in front of the firmware (make BOOTLOADER=optiboot|atmegaboot). Optiboot (Uno,
 * current Nano) turns the watchdog off before it starts the firmware, so a watchdog reset brings the
 * board back. Debian's ATmegaBOOT_168_atmega328 (old Nano, Pro Mini 328) is built without its
 * watchdog fix: after a watchdog reset it runs with the watchdog still at 15 ms and is reset again
 * before it can start anything, for good. On such a board the firmware never lets the watchdog reset
 * the chip: the hard stop and RECALIBRATE restart it in software (main.c; INFO capability bit 6). */
#if defined(HB_BOOTLOADER_ATMEGABOOT)
#define HB_BOARD_WATCHDOG_RESET 0
#else
#define HB_BOARD_WATCHDOG_RESET 1
#endif
/* INFO's SOFT_RESTART (PROTOCOL.md 2.6): set on a board without a watchdog reset. */
#if HB_BOARD_WATCHDOG_RESET
#define HB_BOARD_CAP_SOFT_RESTART 0u
#else
#define HB_BOARD_CAP_SOFT_RESTART 0x0040u /* HB_CAP_SOFT_RESTART */
#endif

/* Receive ring: filled by the RX interrupt while the main loop is busy (a step, a frame's
 * handling; between them the main loop reads the UART itself, uart.h), drained by the main loop
 * into the frame decoder.
 * Flow control is credit-based at the protocol level (the host never has more than
 * HB_RX_CREDIT_BYTES unprocessed bytes in flight), so the ring never overflows; the
 * high-water mark and an overflow counter prove it in the simulator. Power of two, <= 128:
 * head and tail are free-running 8-bit counters and the fill level is (head - tail). */
#ifndef HB_RX_BUFFER_SIZE
#define HB_RX_BUFFER_SIZE 128u
#endif
#define HB_RX_CREDIT_BYTES HB_RX_BUFFER_SIZE
/* Transmit ring: the longest frame the device sends (INFO with a 16-character profile name: 60
 * bytes of payload, 68 on the wire, PROTOCOL.md 2.1) fits without blocking the main loop, with 60
 * bytes to spare; the protocol's 136-byte frames are the host's (UPLOAD). A writer that finds the
 * ring full waits for the TX interrupt to make room. */
#ifndef HB_TX_BUFFER_SIZE
#define HB_TX_BUFFER_SIZE 128u
#endif

/* Tick: Timer2 in CTC mode. The output stage may ask for several updates per tick (the
 * PWM stage synthesising an LRA carrier updates 8 times per tick, at 8 kHz). */
#define HB_TICK_HZ 1000u
#define HB_CYCLES_PER_TICK (F_CPU / HB_TICK_HZ)

/* Step lead D: the device step of tick k is triggered D cycles before the tick boundary from
 * which its sample is output, and must hand the sample over within D (else the stage plays the
 * newest sample it has, a tick stale: a late tick). A PLAY frame that ends just after a trigger
 * waits for the next one: at most 16,000 + D cycles (plus the boundary interrupt's 74) from its
 * last byte to the output, under the bound of one tick plus the 18-byte frame's 5,760 line
 * cycles when D < 5,686. D = 5,000 keeps 686 cycles (2 bytes on the line) of that bound in hand
 * and gives the step, with what interrupts take inside D (the UART's 66 cycles per byte at up
 * to 50 bytes a tick, the 8 kHz synthesis, the UART's transmit) and the one bounded piece of
 * frame handling it may wait for, 1,000 cycles more than two whole PWM updates (4,000) would:
 * the slowest step of the emulator tests, the worst valid streamed program, takes 4,000.
 * hardware/README.md ("Timers, serial line, flow control") gives the measured margins. The
 * 1-update builds trigger on 64-cycle timer counts: 4,992 there (tick.h). */
#ifndef HB_STEP_LEAD_REQUESTED
#define HB_STEP_LEAD_REQUESTED 5000UL
#endif

/* Flush guard: replies held by the device (ACK, NACK, PONG; hb_device_set_deferred_replies) are
 * encoded and sent when the main loop is idle, unless the next step trigger is nearer than
 * this, in which case they wait for the flush after that step (and received bytes wait in the
 * ring, since the device would flush a held reply before taking the next one). 2,500 cycles
 * covers encoding and queuing the longest held reply (PONG, 16 bytes on the wire: about 1,500
 * cycles, more with the interrupts meanwhile), so a step never waits for one. */
#ifndef HB_FLUSH_GUARD_CYCLES
#define HB_FLUSH_GUARD_CYCLES 2500UL
#endif

#endif
