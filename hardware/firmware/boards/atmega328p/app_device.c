/* The real firmware (make APP=device): the core's protocol device (hb_device, PROTOCOL.md
 * part 2) on this board, with the memory sizes of PROTOCOL.md 2.16 for the ATmega328P:
 * 2 program slots of 256 bytes, a 128-byte stream ring, and the 128-byte receive ring
 * advertised as rx_buffer (2.5: the host never has more than that in flight). */
#include <avr/io.h>

#include "app.h"
#include "board.h"
#include "hb_device.h"
#include "output.h"
#include "tick.h"
#include "uart.h"

#define SLOT_COUNT 2u
#define SLOT_CAPACITY 256u
#define STREAM_CAPACITY 128u

#if HB_DEVICE_MAX_SLOTS < SLOT_COUNT
#error "HB_DEVICE_MAX_SLOTS below SLOT_COUNT (hb_port_config.h)"
#endif

#if defined(HB_BOARD_LRA)
#define ACTUATOR HB_ACTUATOR_LRA
#else
#define ACTUATOR HB_ACTUATOR_ERM
#endif

/* SHARPNESS: the stage renders the sharpness code (the PWM stage as an LRA carrier frequency
 * when the profile's band is not a single frequency, or as the strength of its kick and brake
 * when the profile renders edges; the DRV2605L's automatic edges do not depend on it).
 * ACTIVE_BRAKE: brake ticks drive against the motion (the PWM stage on an H-bridge, for a
 * bidirectional profile; the DRV2605L brakes by itself in closed loop). SUBTICK: PONG reports the
 * fraction of the tick from Timer2. */
#if defined(HB_BOARD_PWM)                          \
    && (HB_PROFILE_F_MIN_HZ != HB_PROFILE_F_MAX_HZ \
        || (HB_PROFILE_MIN_EDGE_Q8 < 256u && (HB_PROFILE_KICK_MS != 0u || HB_PROFILE_BRAKE_MS != 0u)))
#define CAP_SHARPNESS HB_CAP_SHARPNESS
#else
#define CAP_SHARPNESS 0u
#endif
#if defined(HB_BOARD_DRV2605L) || (HB_PROFILE_BIDIRECTIONAL && HB_PROFILE_BRAKE_MS != 0u)
#define CAP_BRAKE HB_CAP_ACTIVE_BRAKE
#else
#define CAP_BRAKE 0u
#endif

/* SOFT_RESTART: no watchdog reset on this board (its bootloader loops on one, board.h). */
#if HB_BOARD_WATCHDOG_RESET
#define CAP_SOFT_RESTART 0u
#else
#define CAP_SOFT_RESTART HB_CAP_SOFT_RESTART
#endif

static uint8_t program_memory[SLOT_COUNT * SLOT_CAPACITY];
static uint8_t stream_ring[STREAM_CAPACITY + HB_SOURCE_TAIL]; /* mirrored tail: hb_source.h */
static hb_device_config config;
static hb_device device;

static void diag(void *ctx, uint8_t *payload)
{
    (void)ctx;
    hb_output_diag(payload);
}

/* SET_CONFIG RECALIBRATE (PROTOCOL.md 2.13): the stage forgets its calibration and the board
 * restarts once the ACK is out (main.c), calibrating while it boots. */
static uint8_t config_key(void *ctx, uint8_t key, uint32_t value)
{
    (void)ctx;
    if (key != HB_CONFIG_RECALIBRATE || value != 1u) {
        return HB_ERR_BAD_PARAM;
    }
    uint8_t code = hb_output_recalibrate();
    if (code == 0u) {
        hb_board_restart_requested = 1;
    }
    return code;
}

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

/* Long frame handling pauses here between pieces: a due tick runs at once (hb_device.h). */
static void yield_to_ticks(void *ctx)
{
    (void)ctx;
    hb_board_yield();
}

/* The board's reset flags (app.h) to the protocol's reset reasons (2.6): the firmware's own marks
 * first, then MCUSR; unknown when the bootloader cleared it (Optiboot after a reset pin or power-on). */
static uint8_t reset_reason(uint8_t flags)
{
    if (flags & HB_BOARD_SOFTWARE_RESET) {
        return HB_RESET_SOFTWARE;
    }
    if (flags & (HB_BOARD_HARD_STOP | _BV(WDRF))) {
        return HB_RESET_WATCHDOG;
    }
    if (flags & _BV(BORF)) {
        return HB_RESET_BROWN_OUT;
    }
    if (flags & _BV(EXTRF)) {
        return HB_RESET_PIN;
    }
    if (flags & _BV(PORF)) {
        return HB_RESET_POWER_ON;
    }
    return HB_RESET_UNKNOWN;
}

void hb_app_init(void)
{
    hb_device_config_default(&config);
    config.slot_count = SLOT_COUNT;
    config.slot_capacity = SLOT_CAPACITY;
    config.core.max_body = SLOT_CAPACITY - 16u;
    config.stream_capacity = STREAM_CAPACITY;
    config.stream_tail = HB_SOURCE_TAIL;
    config.rx_buffer = HB_RX_CREDIT_BYTES;
    config.fw_major = 0;
    config.fw_minor = 1;
    config.fw_patch = 0;
    config.actuator = ACTUATOR;
    config.capabilities = CAP_SHARPNESS | CAP_BRAKE | HB_CAP_SUBTICK | HB_CAP_DIAG | CAP_SOFT_RESTART;
    config.profile_name = HB_PROFILE_NAME;
    config.reset_reason = reset_reason(hb_board_reset_flags);
    hb_device_init(&device, &config, program_memory, stream_ring, transmit, 0);
    hb_device_set_subtick(&device, subtick);
    hb_device_set_yield(&device, yield_to_ticks);
    hb_device_set_diag(&device, diag);
    hb_device_set_config_hook(&device, config_key);
    /* ACK, NACK and PONG are encoded at hb_app_flush, after a step that came due meanwhile */
    hb_device_set_deferred_replies(&device, 1);
}

void hb_app_byte(uint8_t byte)
{
    hb_device_receive_byte(&device, byte);
}

/* The step only records its notices (TELEMETRY, CREDIT); they are encoded and sent by
 * hb_app_flush once the sample is with the output stage (hb_device.h). */
void hb_app_step(uint8_t *amplitude, uint8_t *sharpness, uint8_t *flags)
{
    hb_device_set_stage_fault(&device, hb_output_fault()); /* reported by this step if new */
    hb_sample s = hb_device_step(&device);
    *amplitude = s.amp;
    *sharpness = s.sharp;
    *flags = s.flags;
}

void hb_app_flush(void)
{
    hb_device_flush(&device);
}

uint8_t hb_app_pending(void)
{
    return hb_device_pending(&device);
}
