/* libsimavr (Debian: libsimavr-dev, which needs libelf-dev for pkg-config). Only the C
 * harness (CAVRHarness) uses these headers directly; Swift code goes through the harness. */
#ifndef HAPTICBRIDGE_CSIMAVR_SHIM_H
#define HAPTICBRIDGE_CSIMAVR_SHIM_H
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <sim_cycle_timers.h>
#include <avr_uart.h>
#include <avr_twi.h>
#endif
