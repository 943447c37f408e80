/* The 3.0 image's output stage with up to four DRV2605L behind a TCA9548A I2C switch (make
 * OUTPUT=drv2605l-x4; output3.h): channel c is the driver behind the mux's port c, with its EN on
 * D(4 + c) (board.h). Each driver is output_drv2605l.c's chip (drv2605l.h: its start-up with the
 * profile's datasheet registers, its RTP writes and checks, its calibration record), called for one
 * driver at a time: its state in hb_drv2605l, its EN, its port connected.
 *
 * Faults (PROTOCOL-3.md 3.2):
 *   - a driver's own (absent, a transfer failing after its retries, calibration, over-temperature,
 *     over-current, back at its reset defaults) are its channel's: its EN low (standby first when
 *     the bus still works), and the other channels play on;
 *   - the mux's (it does not answer, does not read back the port asked for, or no longer connects
 *     the port last selected: it lost power or was reset) belong to every channel: DRIVER_BUS on
 *     each, and every EN low.
 * A driver or the mux stays off until the board restarts, as the one-chip stage; main.c drops every
 * EN at reset and on the watchdog's hard stop. */
#include <avr/io.h>
#include <util/atomic.h>
#include <util/delay.h>

#include "board.h"
#include "drv2605l.h"
#include "hb_messages.h"
#include "output3.h"
#include "probe.h"
#include "stage_caps.h"
#include "tick.h"
#include "twi.h"

#define CHANNELS HB_STAGE3_CHANNELS
/* One check of one driver every 2 ticks, in turn: each driver every 8 ticks, as the one-chip stage. */
#define CHECK_INTERVAL 2u
#define ATTEMPTS 3u /* a selection is tried this often before the mux counts as failed */
#define NO_PORT 0xFFu

uint8_t hb_drv_x4_current;
volatile uint16_t hb_output_late_ticks;
volatile uint8_t hb_output_write_due;

static hb_drv2605l_state chips[CHANNELS];
/* Latched by the main loop (hb_stage3_output), taken by the timer interrupt at the boundary. */
static volatile uint8_t latch[CHANNELS];
static volatile uint8_t latch_tag; /* hb_tick_count() at the hand-off (output_pwm.c) */
static volatile uint8_t taken[CHANNELS];
static volatile uint8_t written[CHANNELS]; /* read by the interrupt */
static volatile uint8_t check_due;
static uint8_t check_ticks;        /* interrupt only */
static uint8_t check_next;         /* the driver checked next */
static uint8_t selected = NO_PORT; /* the port the mux was last seen to connect */
static uint8_t mux_fault;

static void mux_failed(void)
{
    HB_DRV_X4_ALL_OFF();
    if (mux_fault == 0u) {
        mux_fault = HB_ERR_DRIVER_BUS;
    }
}

/* Connects port c alone (the mux connects at the STOP, SCPS207F 8.5.4). Its control register takes
 * every byte written and keeps the last: the mask written twice is one 3-byte transfer. `verify`:
 * written and read back in one transaction instead, so that a mux that lost its selection (it
 * browned out) or answers wrongly is found. A mux that does not take it has failed. */
static uint8_t select_port(uint8_t c, uint8_t verify)
{
    uint8_t mask = (uint8_t)(1u << c);
    if (selected == c && !verify) {
        return 1;
    }
    selected = NO_PORT;
    for (uint8_t attempt = 0; attempt < ATTEMPTS; attempt++) {
        uint8_t value = mask;
        uint8_t status = verify ? hb_twi_read_register(HB_MUX_ADDRESS, mask, &value)
                                : hb_twi_write_register(HB_MUX_ADDRESS, mask, mask);
        if (status == HB_TWI_OK && value == mask) {
            selected = c;
            return 1;
        }
    }
    mux_failed();
    return 0;
}

/* Driver c becomes the one output_drv2605l.c works on; 0 when the mux failed. */
static uint8_t begin(uint8_t c)
{
    hb_drv_x4_current = c;
    hb_drv2605l = chips[c];
    return select_port(c, selected == NO_PORT);
}

/* Driver c's state back; after a failed transfer the port is confirmed by a read-back, so that a
 * mux that lost its selection or its bus is the mux's fault, not the driver's alone. */
static void end(uint8_t c)
{
    uint8_t failed = (uint8_t)(hb_drv2605l.fault != 0u && chips[c].fault == 0u);
    chips[c] = hb_drv2605l;
    if (failed) {
        (void)select_port(c, 1);
    }
}

void hb_hal_output_init(void)
{
    uint8_t c;
    for (c = 0; c < CHANNELS; c++) {
        chips[c].record = c; /* its own calibration record */
        written[c] = 0xFFu;  /* forces the first write */
    }
    if (!hb_twi_recover()) {
        mux_failed(); /* SDA stays low: something holds the bus */
        return;
    }
    hb_twi_init();
    for (c = 0; c < CHANNELS && mux_fault == 0u; c++) {
        if (begin(c)) {
            hb_drv2605l_power_up(); /* TI's start-up: EN high, then I2C */
            _delay_ms(1);
            hb_drv2605l_start();
            end(c);
            written[c] = 0;
        }
    }
}

void hb_stage3_output(const hb_sample *samples)
{
    ATOMIC_BLOCK (ATOMIC_RESTORESTATE) {
        for (uint8_t c = 0; c < CHANNELS; c++) {
            latch[c] = (samples[c].flags & 1u) ? 0u : samples[c].amp; /* the chip brakes by itself */
        }
        latch_tag = hb_tick_count();
    }
}

/* The boundary (1 update per tick): every channel takes its sample; the bus work is the main loop's. */
void hb_output_timer_update(uint8_t boundary)
{
    uint8_t due = 0;
    (void)boundary;
    if (latch_tag != hb_tick_count()) {
        hb_output_late_ticks++;
    }
    for (uint8_t c = 0; c < CHANNELS; c++) {
        uint8_t value = latch[c];
        taken[c] = value;
        due = (uint8_t)(due | (value != written[c]));
    }
    if (++check_ticks == CHECK_INTERVAL) {
        check_ticks = 0;
        check_due = 1;
    }
    if (due) {
        hb_output_write_due = 1; /* a check alone waits for the step (hb_output_after_step) */
    }
}

/* At the boundary, before the step: the RTP values taken there. */
void hb_output_work(void)
{
    hb_output_write_due = 0;
    HB_PROBE_ON(HB_PROBE_OUTPUT);
    for (uint8_t c = 0; c < CHANNELS && mux_fault == 0u; c++) {
        uint8_t value = taken[c];
        if (chips[c].fault == 0u && value != written[c] && begin(c)) {
            if (hb_drv2605l_write_rtp(value)) {
                written[c] = value;
            }
            end(c);
        }
    }
    HB_PROBE_OFF(HB_PROBE_OUTPUT);
}

/* The mux still connects the port last selected: one that lost power or was reset since (it comes
 * back with no port connected, SCPS207F 8.4.2) has failed, whatever its drivers do. */
static void check_mux(void)
{
    uint8_t value = 0;
    if (selected != NO_PORT
        && (hb_twi_read(HB_MUX_ADDRESS, &value) != HB_TWI_OK || value != (uint8_t)(1u << selected))) {
        mux_failed();
    }
}

/* After the step's hand-off (output.h), outside its lead: the mux's check and one driver's, when
 * they came due. */
void hb_output_after_step(void)
{
    HB_PROBE_ON(HB_PROBE_OUTPUT);
    if (check_due && mux_fault == 0u) {
        check_mux();
    }
    if (check_due && mux_fault == 0u) {
        uint8_t c = check_next;
        check_next = (uint8_t)((c + 1u) % CHANNELS);
        check_due = 0;
        if (chips[c].fault == 0u && begin(c)) {
            hb_drv2605l_check();
            end(c);
        }
    }
    HB_PROBE_OFF(HB_PROBE_OUTPUT);
}

uint8_t hb_stage3_fault(uint8_t channel)
{
    return mux_fault != 0u ? mux_fault : chips[channel].fault;
}

void hb_stage3_diag(uint8_t channel, uint8_t *payload)
{
    hb_drv2605l = chips[channel]; /* hb_drv2605l is the scratch of the driver worked on */
    hb_drv2605l_diag(payload);
}

void hb_stage3_describe(uint8_t channel, hb_channel_config *c)
{
    (void)channel; /* every driver has the image's profile */
    c->profile_name = HB_PROFILE_NAME;
    c->safety_ticks = HB_DEFAULT_SAFETY_TICKS;
    c->profile_id = 0;
    c->brake_ticks = HB_DEFAULT_BRAKE_TICKS;
    c->rated_mv = HB_PROFILE_RATED_MV;     /* RATED_VOLTAGE's drive at RTP 255 */
    c->limit_mv = HB_PROFILE_OVERDRIVE_MV; /* OD_CLAMP */
    c->wake_ticks = HB_DEVICE_DEFAULT_WAKE_TICKS;
    c->actuator = HB_STAGE_ACTUATOR;
    c->stage = 3u; /* a DRV2605L behind a TCA9548A (3.2) */
    c->safety_threshold = HB_DEFAULT_SAFETY_THRESHOLD;
    c->caps = (uint8_t)((HB_STAGE_CAP_SHARPNESS ? 1u : 0u) | (HB_STAGE_CAP_BRAKE ? 2u : 0u) | 4u);
}

/* SET_CONFIG RECALIBRATE: every driver forgets its record; the board restarts and calibrates. */
uint8_t hb_output_recalibrate(void)
{
    for (uint8_t c = 0; c < CHANNELS; c++) {
        hb_drv2605l.record = c;
        hb_drv2605l_forget_calibration();
    }
    return 0;
}
