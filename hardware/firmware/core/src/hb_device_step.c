/* One device step (PROTOCOL.md 2.14): the sample of tick `now`, in the nine phases of 2.14, most
 * of them functions below, always inlined (the step stays one function, with its state in
 * registers). The step only records its notices; hb_device_flush sends them
 * (hb_device_telemetry.c). */
#include "hb_device_private.h"
#include "hb_port.h"

/* ---- output stage (2.9): the step's phase 7 ---- */

static void step_output_stage(hb_session *dev)
{
    hb_dev_output_stage(dev, (uint8_t)(hb_dev2_of(dev)->play.mode != HB_MODE_IDLE || dev->pending));
}

/* ---- plays ---- */

/* Loads the pending play (2.14 step 2). */
static HB_MUST_CHECK hb_err start_play(hb_session *dev)
{
    uint8_t slot = dev->pending_slot;
    hb_err err;
    if (slot == HB_STREAM_SLOT) {
        err =
            hb_interp_play_load_stream(&dev->interp, &hb_dev2_of(dev)->play, dev->stream_header, &dev->ring);
        dev->stream_state = STREAM_PLAYING;
    } else {
        err = hb_interp_play_load_validated(&dev->interp, &hb_dev2_of(dev)->play,
                                            hb_dev_slot_bytes(dev, slot)); /* checked at COMMIT */
    }
    hb_interp_shared_set_scale(&dev->interp, dev->pending_scale);
    dev->interp.offset = dev->pending_offset;
    dev->pending = 0;
    dev->active = 1;
    hb_dev_play_begin(dev, dev->pending_seq, slot, HB_PLAY_PLAYING, dev->now);
    dev->loops_left = dev->pending_loops;
    dev->full_scale_run = 0;
    return err;
}

static void end_play(hb_session *dev, uint8_t code, uint32_t tick)
{
    uint8_t event = code == 0u ? HB_EVENT_FINISHED : HB_EVENT_FAULT;
    hb_dev_telemetry(dev, event, dev->plays[0].slot, code, tick);
    hb_dev_play_end(dev, event, code, tick);
    if (dev->plays[0].slot == HB_STREAM_SLOT) {
        hb_dev_stream_close(dev);
    }
    dev->active = 0;
}

/* ---- the step's phases, in order; `n` is the step's tick ----
 * Phases 3 and 4 are written out in hb_device_step: as functions taking the sample and the play's
 * end by pointer they changed the register allocation of the whole step on the ATmega328P. */

/* The watchdog's and a stage fault's way to end things: the active play ends with a brake, or the
 * pending one is cancelled, the stream closes, and TELEMETRY FAULT reports `code` with the play's
 * slot (HB_NO_SLOT when nothing plays: only a stage fault, 2.18, is reported then). */
static void fault_stop(hb_session *dev, uint8_t code, uint32_t n)
{
    uint8_t slot = dev->active ? dev->plays[0].slot : (dev->pending ? dev->pending_slot : HB_NO_SLOT);
    if (dev->active) {
        hb_dev_play_end(dev, HB_EVENT_FAULT, code, n);
    } else if (dev->pending) {
        hb_dev_play_fault_pending(dev, code, n);
    }
    dev->pending = 0;
    if (hb_dev2_of(dev)->play.mode == HB_MODE_PLAYING) {
        hb_interp_play_stop(&dev->interp, &hb_dev2_of(dev)->play, 1);
    }
    hb_dev_stream_close(dev);
    hb_dev_telemetry(dev, HB_EVENT_FAULT, slot, code, n);
    dev->active = 0;
}

/* 1. The host-silence watchdog (2.13) ends a play, or cancels a pending one. */
static HB_ALWAYS_INLINE void step_watchdog(hb_session *dev, uint32_t n)
{
    if (dev->watchdog != 0u && dev->silence >= dev->watchdog
        && (hb_dev2_of(dev)->play.mode == HB_MODE_PLAYING || dev->pending)) {
        fault_stop(dev, HB_ERR_WATCHDOG, n);
    }
}

/* 1b. A new output-stage fault (2.18) is reported, and ends a play or cancels a pending one as the
 * watchdog does. */
static HB_ALWAYS_INLINE void step_stage_fault(hb_session *dev, uint32_t n)
{
    uint8_t code = dev->stage_fault;
    if (code != dev->fault_sent) {
        dev->fault_sent = code;
        if (code != 0u) {
            fault_stop(dev, code, n);
        }
    }
}

/* 2. A pending play starts when the stage is warm and its time has come; it replaces a running one.
 * While the output stage has a fault, the play ends with it instead, as a failed load does. */
static HB_ALWAYS_INLINE void step_start(hb_session *dev, uint32_t n)
{
    hb_interp_play *it = &hb_dev2_of(dev)->play;
    if (dev->pending && dev->stage == HB_STAGE_WARM
        && ((dev->pending_flags & HB_PLAY_AT) == 0u || hb_dev_tick_diff(n, dev->pending_at) >= 0)) {
        hb_err err;
        if (dev->stage_fault != 0u) {
            dev->pending = 0;
            if (dev->pending_slot == HB_STREAM_SLOT) {
                hb_dev_stream_close(dev);
            }
            hb_dev_telemetry(dev, HB_EVENT_FAULT, dev->pending_slot, dev->stage_fault, n);
            hb_dev_play_fault_pending(dev, dev->stage_fault, n);
            return;
        }
        if (dev->active && it->mode == HB_MODE_PLAYING) {
            hb_dev_telemetry(dev, HB_EVENT_STOPPED, dev->plays[0].slot, HB_STOPPED_BY_PLAY, n);
            hb_dev_play_end(dev, HB_EVENT_STOPPED, HB_STOPPED_BY_PLAY, n);
            if (dev->plays[0].slot == HB_STREAM_SLOT) {
                hb_dev_stream_close(dev);
            }
        }
        err = start_play(dev);
        if (err != HB_OK) {
            end_play(dev, err, n);
        } else {
            hb_dev_telemetry(dev, HB_EVENT_STARTED, dev->plays[0].slot, 0, n);
        }
    }
}

/* 5. The play's first sample with amplitude above 0 is reported. */
static HB_ALWAYS_INLINE void step_first_output(hb_session *dev, uint8_t amp, uint32_t n)
{
    if (dev->active && dev->plays[0].first == HB_PLAY_FIRST_NONE && amp != 0u) {
        hb_dev_play_first(dev, n);
        hb_dev_telemetry(dev, HB_EVENT_FIRST_OUTPUT, dev->plays[0].slot, 0, n);
    }
}

/* ---- public API ---- */

hb_sample hb_device_step(hb_device *device)
{
    hb_session *dev = &device->s;
    const uint32_t n = dev->now;
    hb_interp_play *it = &hb_dev2_of(dev)->play;
    hb_sample s;
    uint8_t ended = 0, code = 0, was_playing;

    hb_dev_settle(dev); /* the previous step's, if the board did not flush */
    if (dev->queued_count != 0u) {
        hb_dev_flush_pending(dev); /* the previous step's notices, if the board did not flush them; a
                                    * held reply alone waits for this step's notices */
    }
    dev->in_step = 1; /* notices are queued until hb_device_flush */
    step_watchdog(dev, n);
    step_stage_fault(dev, n);
    step_start(dev, n);
    /* 3. the interpreter's tick, with seamless loop restarts: a slot play with iterations left
     * (PLAY's `loops`; 0: forever) restarts in the tick its iteration ended */
    was_playing = (uint8_t)(it->mode == HB_MODE_PLAYING);
    s = hb_interp_play_sample(&dev->interp, it);
    if (dev->active && was_playing && it->mode != HB_MODE_PLAYING) {
        if (it->error == HB_OK && dev->plays[0].slot != HB_STREAM_SLOT && dev->loops_left != 1u) {
            if (dev->loops_left > 1u) {
                dev->loops_left--;
            }
            hb_interp_play_restart(&dev->interp,
                                   it); /* the same slot, validated at COMMIT, parsed at the play's start */
            s = hb_interp_play_sample(&dev->interp, it);
            if (it->mode != HB_MODE_PLAYING) {
                ended = 1;
                code = it->error;
            }
        } else {
            ended = 1;
            code = it->error;
        }
    }
    /* 4. the safety limiter across iterations (2.8): the interpreter's own restarts with each
     * iteration, this one counts the play's full-scale run through the restarts */
    if (dev->active && !ended) {
        if (s.amp >= dev->cfg->core.safety_threshold) {
            if (dev->full_scale_run != 0xFFFFFFFFu) {
                dev->full_scale_run++;
            }
            if (dev->full_scale_run > dev->cfg->core.safety_ticks) {
                hb_interp_play_stop(&dev->interp, it, 1);
                s = hb_interp_play_sample(&dev->interp, it);
                ended = 1;
                code = HB_ERR_SAFETY_LIMIT;
            }
        } else {
            dev->full_scale_run = 0;
        }
    }
    step_first_output(dev, s.amp, n);
    /* 6. the end of the play, reported */
    if (ended) {
        end_play(dev, code, n);
    }
    /* 7. output stage bookkeeping */
    step_output_stage(dev);
    hb_dev_step_credit(dev); /* 8. the stream's credit (2.10) */
    /* 9. the silence the watchdog measures, and the device tick */
    if (dev->silence != 0xFFFFu) {
        dev->silence++;
    }
    dev->now++;
    dev->in_step = 0;
    return s;
}

hb_sample hb_device_tick(hb_device *dev)
{
    hb_sample s = hb_device_step(dev);
    hb_device_flush(dev);
    return s;
}

uint8_t hb_device_stage(const hb_device *dev)
{
    return dev->s.stage;
}

void hb_device_set_stage_fault(hb_device *dev, uint8_t code)
{
    dev->s.stage_fault = code;
}
