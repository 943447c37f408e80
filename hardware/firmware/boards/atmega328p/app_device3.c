/* The protocol 3.0 firmware (make OUTPUT=pwm2 or OUTPUT=drv2605l-x4): the core's 3.0 device
 * (hb_device3, firmware-protocol/PROTOCOL-3.md) on this board, one channel per actuator of the
 * image's output stage (output3.h), sized for the ATmega328P's 1,536 bytes of static RAM (3.15):
 * HB_DEVICE3_MAX_PLAYERS players (the Makefile's PLAYERS), one program slot of SLOT_CAPACITY bytes
 * (the Makefile's SLOT), no stream ring, and the 128-byte receive ring advertised as rx_buffer.
 * The tick runs on Timer0 with the trim of 3.10 (tick.h), so INFO reports TRIM. */
#include <avr/io.h>

#include "app.h"
#include "board.h"
#include "hb_device3.h"
#include "hb_trim.h"
#include "output3.h"
#include "stage_caps.h"
#include "tick.h"

#ifndef HB_V3_SLOT_CAPACITY
#define HB_V3_SLOT_CAPACITY 128u
#endif
#if HB_DEVICE3_MAX_CHANNELS < HB_STAGE3_CHANNELS
#error "HB_DEVICE3_MAX_CHANNELS below the stage's channels (Makefile)"
#endif
/* The work budget E (3.9) and the fade R at boot (3.7): the reference configuration's. */
#define WORK_BUDGET 36u
#define FADE_TICKS 8u

static uint8_t program_memory[HB_V3_SLOT_CAPACITY];
static hb_channel_config channels[HB_STAGE3_CHANNELS];
static hb_device3_config config;
static hb_device3 device;
static hb_trim trim;

/* DIAG (3.11): the core fills DIAG_REPORT's payload after its channel byte, which precedes it. */
static void diag(void *ctx, uint8_t *payload)
{
    (void)ctx;
    hb_stage3_diag(payload[-1], payload);
}

void hb_app_init(void)
{
    uint8_t c;
    for (c = 0; c < HB_STAGE3_CHANNELS; c++) {
        hb_stage3_describe(c, &channels[c]);
    }
    hb_device_config_default(&config.base);
    config.base.slot_count = 1;
    config.base.slot_capacity = HB_V3_SLOT_CAPACITY;
    config.base.core.max_body = HB_V3_SLOT_CAPACITY - 16u;
    config.base.stream_capacity = 0;
    config.base.rx_buffer = HB_RX_CREDIT_BYTES;
    config.base.fw_major = 0;
    config.base.fw_minor = 2;
    config.base.fw_patch = 0;
    /* INFO's device-wide figures are channel 0's (3.11); CHANNEL_INFO has each channel's */
    config.base.actuator = channels[0].actuator;
    config.base.profile_name = channels[0].profile_name;
    config.base.capabilities =
        (uint16_t)(((channels[0].caps & 1u) ? HB_CAP_SHARPNESS : 0u)
                   | ((channels[0].caps & 2u) ? HB_CAP_ACTIVE_BRAKE : 0u) | HB_CAP_SUBTICK | HB_CAP_DIAG
                   | HB_CAP_TRIM | HB_BOARD_CAP_SOFT_RESTART);
    config.base.reset_reason = hb_board_reset_reason();
    config.channels = channels;
    config.channel_count = HB_STAGE3_CHANNELS;
    config.players = HB_DEVICE3_MAX_PLAYERS;
    config.work_budget = WORK_BUDGET;
    config.fade_ticks = FADE_TICKS;
    hb_trim_init(&trim);
    (void)hb_device3_init(&device, &config, program_memory, 0, hb_board_transmit, 0);
    /* the session's hooks (hb_device.h's setters take a 2.0 device; the fields are the session's) */
    device.dev.subtick = hb_board_subtick;
    device.dev.yield = hb_board_yield_hook;
    device.dev.diag = diag;
    device.dev.config_hook = hb_board_config_key;
    /* ACK, NACK and PONG are encoded at hb_app_flush, after a step that came due meanwhile */
    device.dev.defer_replies = 1;
}

/* 2.0's flush and pending (hb_device.h) read only the session, the first member of both devices. */
static hb_device *session(void)
{
    return (hb_device *)(void *)&device.dev;
}

void hb_app_byte(uint8_t byte)
{
    hb_device3_receive_byte(&device, byte);
}

/* One step: each channel's stage fault in (3.8 step 1), every channel's sample out, then the next
 * tick's trim (3.10; with no trim acc stays as it is and delta is 0, so the division is skipped). */
void hb_app3_step(void)
{
    hb_sample samples[HB_STAGE3_CHANNELS];
    uint8_t c;
    int16_t ppm;
    for (c = 0; c < HB_STAGE3_CHANNELS; c++) {
        hb_device3_set_stage_fault(&device, c, hb_stage3_fault(c));
    }
    hb_device3_step(&device, samples);
    hb_stage3_output(samples);
    ppm = hb_device3_trim(&device);
    hb_tick_set_trim(ppm == 0 ? (int8_t)0 : (int8_t)hb_trim_tick(&trim, HB_TICK_PERIOD_COUNTS, ppm));
}

/* The 3.0 step sends its notices itself; what waits here is a held reply. */
void hb_app_flush(void)
{
    hb_device_flush(session());
}

uint8_t hb_app_pending(void)
{
    return hb_device_pending(session());
}
