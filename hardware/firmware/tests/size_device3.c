/* The protocol 3.0 device's share of an ATmega328P image (make size-device3-avr): the core linked
 * with -flto and --gc-sections behind a stand-in main that boots hb_device3 and runs its byte
 * intake and step forever, with HB_DEVICE3_MAX_CHANNELS channels and HB_DEVICE3_MAX_PLAYERS
 * players (the Makefile sets both), one slot of 128 bytes and no stream ring. Not a firmware: no
 * UART, no output stage; its flash and RAM are the core's. */
#include "hb_device3.h"

static const hb_channel_config channel = {"lra", 30000u, 7, 20, 2000, 3000, 20, 1, 1, 224, 3};
static hb_channel_config channels[HB_DEVICE3_MAX_CHANNELS];
static hb_device3_config cfg;
static hb_device3 dev;
static uint8_t memory[128];
volatile uint8_t sink, source;

static void tx(void *ctx, const uint8_t *bytes, uint16_t length)
{
    (void)ctx;
    while (length-- != 0u) {
        sink = *bytes++;
    }
}

int main(void)
{
    hb_sample samples[HB_DEVICE3_MAX_CHANNELS];
    uint8_t c;
    for (c = 0; c < HB_DEVICE3_MAX_CHANNELS; c++) {
        channels[c] = channel;
    }
    hb_device_config_default(&cfg.base);
    cfg.base.slot_count = 1;
    cfg.base.slot_capacity = sizeof memory;
    cfg.base.stream_capacity = 0;
    cfg.channels = channels;
    cfg.channel_count = HB_DEVICE3_MAX_CHANNELS;
    cfg.players = HB_DEVICE3_MAX_PLAYERS;
    cfg.work_budget = 36;
    cfg.fade_ticks = 8;
    if (!hb_device3_init(&dev, &cfg, memory, 0, tx, 0)) {
        return 1;
    }
    for (;;) {
        hb_device3_receive_byte(&dev, source);
        hb_device3_step(&dev, samples);
        sink = samples[0].amp;
    }
}
