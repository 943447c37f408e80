/* The real firmware (make APP=device): the core's protocol device (hb_device, PROTOCOL.md
 * part 2) on this board, with the memory sizes of PROTOCOL.md 2.16 for the ATmega328P:
 * 2 program slots of 256 bytes, a 128-byte stream ring, and the 128-byte receive ring
 * advertised as rx_buffer (2.5: the host never has more than that in flight). */
#include <avr/io.h>

#include "app.h"
#include "board.h"
#include "hb_device.h"
#include "output.h"
#include "stage_caps.h"
#include "tick.h"
#include "uart.h"

#define SLOT_COUNT 2u
#define SLOT_CAPACITY 256u
#define STREAM_CAPACITY 128u

#if HB_DEVICE_MAX_SLOTS < SLOT_COUNT
#error "HB_DEVICE_MAX_SLOTS below SLOT_COUNT (hb_port_config.h)"
#endif

/* SUBTICK: PONG reports the fraction of the tick from Timer2; SHARPNESS, ACTIVE_BRAKE: stage_caps.h. */
#define CAP_SHARPNESS HB_STAGE_CAP_SHARPNESS
#define CAP_BRAKE HB_STAGE_CAP_BRAKE

static uint8_t program_memory[SLOT_COUNT * SLOT_CAPACITY];
static uint8_t stream_ring[STREAM_CAPACITY + HB_SOURCE_TAIL]; /* mirrored tail: hb_source.h */
static hb_device_config config;
static hb_device device;

static void diag(void *ctx, uint8_t *payload)
{
    (void)ctx;
    hb_output_diag(payload);
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
    config.actuator = HB_STAGE_ACTUATOR;
    config.capabilities =
        CAP_SHARPNESS | CAP_BRAKE | HB_CAP_SUBTICK | HB_CAP_DIAG | HB_BOARD_CAP_SOFT_RESTART;
    config.profile_name = HB_PROFILE_NAME;
    config.reset_reason = hb_board_reset_reason();
    hb_device_init(&device, &config, program_memory, stream_ring, hb_board_transmit, 0);
    hb_device_set_subtick(&device, hb_board_subtick);
    hb_device_set_yield(&device, hb_board_yield_hook);
    hb_device_set_diag(&device, diag);
    hb_device_set_config_hook(&device, hb_board_config_key);
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
