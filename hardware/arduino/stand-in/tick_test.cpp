/* The library's micros() tick on the host, against the stand-in's clock (stand_in.cpp): a sketch
 * whose setup() runs the checks and exits. tools/arduino-portability builds and runs it.
 *
 * What the emulator tests cannot reach with the example's tight loop(): a late poll() runs the one
 * due step; a late one runs at most HAPTIC_MAX_STEPS_PER_POLL, and the rest on the next calls; a
 * stall longer than HAPTIC_MAX_BACKLOG_US slips the schedule by whole ticks; micros()'s wrap; the
 * subtick and the flush guard's near(). The samples written are the interpreter's, tick for tick. */
#include <stdio.h>
#include <stdlib.h>

#include "Arduino.h"
#include "HapticPlayer.h"
#include "HapticTick.h"

extern unsigned long hb_stand_in_micros;

namespace
{
int passed = 0;
int failed = 0;

void checkEq(const char *what, long got, long want)
{
    if (got == want) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: got %ld, want %ld\n", what, got, want);
    }
}

/* haptic compile Examples/heartbeat.ahap --actuator lra-drv2605l-170hz-10mm: 168 ticks */
const uint8_t heartbeat[] = {
    0x48, 0x50, 0x02, 0x00, 0xe8, 0x03, 0x08, 0x00, 0x00, 0x00, 0xa8, 0x00,
    0x00, 0x00, 0x7c, 0x27, 0x80, 0xa3, 0x4d, 0x9f, 0x77, 0x40, 0x33, 0xf2,
};

class Recorder : public HapticOutput
{
  public:
    bool begin(const HapticProfile &) override
    {
        return true;
    }
    void write(uint8_t amplitude, uint8_t sharpness, uint8_t flags) override
    {
        if (count < sizeof samples / sizeof samples[0]) {
            samples[count] = {amplitude, sharpness, flags};
        }
        count++;
    }
    hb_sample samples[256];
    unsigned count = 0;
};

/* The interpreter alone, tick by tick: what the player must write. */
void reference(hb_sample *out, unsigned ticks)
{
    static hb_config config;
    static hb_interp interp;
    hb_config_default(&config);
    hb_interp_init(&interp, &config);
    checkEq("the reference loads the heartbeat", hb_interp_load(&interp, heartbeat, sizeof heartbeat), HB_OK);
    for (unsigned k = 0; k < ticks; k++) out[k] = hb_interp_step(&interp);
}

bool same(const hb_sample &a, const hb_sample &b)
{
    return a.amp == b.amp && a.sharp == b.sharp && a.flags == b.flags;
}

/* Steps a player's poll() runs at micros() = now. */
unsigned pollAt(HapticPlayer &player, Recorder &out, unsigned long now)
{
    hb_stand_in_micros = now;
    unsigned before = out.count;
    player.poll();
    return out.count - before;
}

void onTimeAndLatePolls(unsigned long origin)
{
    static hb_sample want[200];
    reference(want, 200);
    Recorder out;
    HapticPlayer player;
    hb_stand_in_micros = origin;
    player.begin(out, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
    checkEq("play", player.play(heartbeat, sizeof heartbeat), 0);
    /* a poll 300 us after each due time: one step each, never one early */
    for (unsigned long k = 0; k < 100; k++) {
        checkEq("steps of an on-time poll", pollAt(player, out, origin + k * 1000u + 300u), 1);
        checkEq("steps before a due time", pollAt(player, out, origin + k * 1000u + 999u), 0);
    }
    /* 9.5 ticks late: 10 steps due, 4 per call */
    unsigned long late = origin + 109u * 1000u + 500u;
    checkEq("first catch-up poll", pollAt(player, out, late), HAPTIC_MAX_STEPS_PER_POLL);
    checkEq("second catch-up poll", pollAt(player, out, late), HAPTIC_MAX_STEPS_PER_POLL);
    checkEq("third catch-up poll", pollAt(player, out, late), 10 - 2 * HAPTIC_MAX_STEPS_PER_POLL);
    checkEq("caught up", pollAt(player, out, late), 0);
    for (unsigned long k = 110; k < 200; k++) pollAt(player, out, origin + k * 1000u);
    checkEq("ticks written", out.count, 200);
    unsigned mismatches = 0;
    for (unsigned k = 0; k < 200; k++) mismatches += same(out.samples[k], want[k]) ? 0u : 1u;
    checkEq("samples unlike the interpreter's", mismatches, 0);
    checkEq("playing after the brake", player.playing(), false);
}

void stallSlipsTheSchedule()
{
    HapticTick tick;
    hb_stand_in_micros = 7;
    tick.start();
    /* 50 ms without a poll: the 20 ms backlog is kept, the 30 ticks before it are dropped */
    hb_stand_in_micros = 7u + 50000u;
    unsigned steps = 0;
    while (tick.due()) {
        tick.advance();
        steps++;
    }
    checkEq("steps after a 50 ms stall", steps, HAPTIC_MAX_BACKLOG_US / 1000u + 1u);
    checkEq("slips", tick.slips(), 1);
    /* the phase is kept: the next step is due at a whole number of ticks from the start */
    hb_stand_in_micros = 7u + 50999u;
    checkEq("due before the next tick", tick.due(), false);
    hb_stand_in_micros = 7u + 51000u;
    checkEq("due at the next tick", tick.due(), true);
}

void subtickAndNear()
{
    HapticTick tick;
    hb_stand_in_micros = 1000000u;
    tick.start();
    checkEq("step 0 due at start", tick.due(), true);
    tick.advance(); /* step 0 ran; step 1 due at +1000 */
    hb_stand_in_micros = 1000000u + 500u;
    checkEq("subtick at half a tick", tick.subtick(), 32765); /* 500 x 8388 >> 7, 3/65536 low */
    hb_stand_in_micros = 1000000u + 999u;
    checkEq("subtick just before the next step", tick.subtick() >= 65460u, true);
    hb_stand_in_micros = 1000000u + 1000u;
    checkEq("subtick once overdue", tick.subtick(), 65535);
    hb_stand_in_micros = 1000000u + 700u;
    checkEq("near(250) 300 us ahead", tick.near(250), false);
    hb_stand_in_micros = 1000000u + 800u;
    checkEq("near(250) 200 us ahead", tick.near(250), true);
    hb_stand_in_micros = 1000000u + 1200u;
    checkEq("near(250) when due", tick.near(250), true);
}
} // namespace

void setup()
{
    onTimeAndLatePolls(0);
    /* micros() wraps every 2^32 us (71.6 minutes): the same across the wrap */
    onTimeAndLatePolls(0xFFFFFFFFUL - 150000UL);
    stallSlipsTheSchedule();
    subtickAndNear();
    printf("%d passed, %d failed\n", passed, failed);
    exit(failed ? 1 : 0);
}

void loop()
{
}
