/* The protocol device (hb_device, PROTOCOL.md part 2) on the BBC micro:bit v1 as QEMU's `microbit`
 * machine runs it, with PROTOCOL.md 2.16's default memory sizes (hb_port_config.h).
 *
 * Main loop: every tick the timer counted runs one device step; its sample goes to the output
 * stage (sink.h), its notices to the UART, then the step record to the harness. Between steps,
 * received bytes go to the protocol handler one by one, whole frames handled before the next
 * step (no yield hook: a 32-bit CPU handles the longest frame well inside a tick). Idle: WFI.
 *
 * Lockstep (the word `lockstep` on the semihosting command line): the harness is the clock. A
 * step runs when the harness has granted it, after every byte the harness sent before the grant,
 * not at the timer's ticks, so tests run as fast as the host allows, the board never runs ahead
 * of them, and each byte is taken before the step the harness chose (as simavr's run(until:) and
 * its line timing do for the ATmega328P); the timer still measures each step's cost and PONG's
 * subtick. */
#include "hb_device.h" /* and, through hb_port.h, hb_port_config.h: the sizes */
#include "nrf51.h"
#include "semihost.h"
#include "sink.h"
#include "tick.h"
#include "uart.h"

static uint8_t program_memory[HB_BOARD_SLOT_COUNT * HB_BOARD_SLOT_CAPACITY];
static uint8_t stream_ring[HB_BOARD_STREAM_CAPACITY + HB_SOURCE_TAIL]; /* mirrored tail: hb_source.h */
static hb_device_config config;
static hb_device device;

static uint8_t lockstep;
static uint32_t granted;

static void transmit(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    hb_uart_write(bytes, length);
}

static uint16_t subtick(void *ctx)
{
    (void)ctx;
    return hb_tick_subtick();
}

static void device_init(void)
{
    hb_device_config_default(&config);
    config.slot_count = HB_BOARD_SLOT_COUNT;
    config.slot_capacity = HB_BOARD_SLOT_CAPACITY;
    config.core.max_body = HB_BOARD_SLOT_CAPACITY - 16u;
    config.stream_capacity = HB_BOARD_STREAM_CAPACITY;
    config.stream_tail = HB_SOURCE_TAIL;
    config.rx_buffer = HB_BOARD_RX_BUFFER;
    config.fw_major = 0;
    config.fw_minor = 1;
    config.fw_patch = 0;
    config.actuator = HB_ACTUATOR_LRA;
    config.capabilities = HB_CAP_SUBTICK;
    config.profile_name = "lra-170hz-10mm";
    config.reset_reason = HB_RESET_POWER_ON;
    hb_device_init(&device, &config, program_memory, stream_ring, transmit, 0);
    hb_device_set_subtick(&device, subtick);
}

/* Lockstep grants (3 bytes on QEMU's standard input): steps (1-255), then how many bytes the
 * harness had handed to the UART when it granted them (16 bits, little-endian): those bytes are
 * all taken before the first granted step, whenever QEMU delivers them. The harness makes that
 * input non-blocking, so a read never waits: one that blocked would hold QEMU's big lock, and
 * QEMU could neither feed the UART meanwhile nor stop on SIGTERM. */
static uint16_t grant_bytes;

static uint8_t step_due(uint32_t done)
{
    if (!lockstep) return (uint8_t)(hb_tick_count() != done);
    uint8_t grant[3];
    if (granted == 0u && hb_semihost_read(grant, sizeof grant)) {
        granted = grant[0];
        grant_bytes = (uint16_t)(grant[1] | (uint16_t)(grant[2] << 8));
    }
    return (uint8_t)(granted != 0u && hb_uart_rx_total == grant_bytes);
}

static void step(uint16_t taken)
{
    uint32_t start = hb_tick_now();
    hb_sample s = hb_device_step(&device);
    hb_hal_output(s.amp, s.sharp, s.flags);
    uint32_t handed = hb_tick_now();
    hb_device_flush(&device);
    hb_sink_emit(taken, handed - start);
}

/* Real time: a due step first, then received bytes, else sleep until an interrupt. */
static void __attribute__((noreturn)) run(void)
{
    uint32_t done = hb_tick_count();
    uint16_t taken = 0;
    for (;;) {
        if (step_due(done)) {
            done++;
            step(taken);
            taken = 0;
        } else if (hb_uart_rx_count() != 0u) {
            hb_device_receive_byte(&device, hb_uart_rx_take());
            taken++;
        } else {
            /* one that comes between the checks and WFI still wakes it */
            __asm__ volatile("cpsid i" ::: "memory");
            if (hb_tick_count() == done && hb_uart_rx_count() == 0u) __asm__ volatile("wfi");
            __asm__ volatile("cpsie i" ::: "memory");
        }
    }
}

/* Lockstep: received bytes first, then a granted step once every byte granted with it is in,
 * else a nap (until a byte comes, or the time to look for a grant again). */
static void __attribute__((noreturn)) run_lockstep(void)
{
    uint16_t taken = 0;
    for (;;) {
        if (hb_uart_rx_count() != 0u) {
            hb_device_receive_byte(&device, hb_uart_rx_take());
            taken++;
        } else if (step_due(0)) {
            granted--;
            step(taken);
            taken = 0;
        } else {
            hb_tick_nap();
        }
    }
}

int main(void)
{
    lockstep = hb_semihost_has_argument("lockstep");
    hb_hal_output_init();
    hb_uart_init();
    device_init();
    hb_tick_init();
    if (lockstep) run_lockstep();
    run();
}
