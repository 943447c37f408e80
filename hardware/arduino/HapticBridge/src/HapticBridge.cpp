/* The protocol device on the Arduino API: the bare-metal firmware's main loop (boards/atmega328p/
 * main.c and app_device.c) with micros() for Timer2, a Stream for the UART rings and an
 * HapticOutput for the output stage. One difference of substance: the step's sample is written
 * to the stage right after the step, not latched to a timer boundary, so each tick's output
 * moves by the time poll() took to come round (the values are the same). */
#include "HapticBridge.h"

static_assert(HAPTIC_ACTUATOR_LRA == HB_ACTUATOR_LRA && HAPTIC_ACTUATOR_ERM == HB_ACTUATOR_ERM,
              "HapticOutput.h's actuator codes are INFO's");
static_assert(HAPTIC_CAP_SHARPNESS == HB_CAP_SHARPNESS && HAPTIC_CAP_ACTIVE_BRAKE == HB_CAP_ACTIVE_BRAKE,
              "HapticOutput.h's capability bits are INFO's");

namespace
{
/* Receive buffer reported when the sketch says nothing: what an AVR HardwareSerial ring holds
 * (SERIAL_RX_BUFFER_SIZE - 1: one slot stays free), and 63 where the core does not say (the
 * usual 64-byte ring; USB CDC links hold the host back themselves). */
#if defined(SERIAL_RX_BUFFER_SIZE)
const uint16_t defaultReceiveBuffer = SERIAL_RX_BUFFER_SIZE - 1;
#else
const uint16_t defaultReceiveBuffer = 63;
#endif
} // namespace

void HapticBridgeDevice::start(Stream &link, HapticOutput &output, const HapticProfile &profile, bool ready)
{
    link_ = &link;
    output_ = &output;
    stageReady_ = ready;
    hb_device_config_default(&config_);
    config_.slot_count = slots_;
    config_.slot_capacity = slotCapacity_;
    config_.core.max_body = slotCapacity_ - 16u;
    config_.stream_capacity = ringCapacity_;
    config_.stream_tail = ringCapacity_ ? HB_SOURCE_TAIL : 0; /* ring_ holds the tail too */
    config_.rx_buffer = rxBuffer_ ? rxBuffer_ : defaultReceiveBuffer;
    config_.fw_major = HAPTICBRIDGE_VERSION_MAJOR;
    config_.fw_minor = HAPTICBRIDGE_VERSION_MINOR;
    config_.fw_patch = HAPTICBRIDGE_VERSION_PATCH;
    config_.actuator = profile.actuator;
    config_.capabilities = (uint16_t)(output.capabilities() | HB_CAP_SUBTICK | HB_CAP_DIAG);
    config_.profile_name = profile.name;
    /* the Arduino API has no reset cause: RESET reports 0, unknown */
    config_.reset_reason = HB_RESET_UNKNOWN;
    hb_device_init(&device_, &config_, memory_, ringCapacity_ ? ring_ : nullptr, transmit, this);
    hb_device_set_subtick(&device_, subtick);
    hb_device_set_yield(&device_, yield);
    hb_device_set_diag(&device_, diag);
    hb_device_set_stage_fault(&device_, stageFault()); /* the first step reports it */
    /* ACK, NACK and PONG are encoded at a flush: after a step, or when none is near (poll) */
    hb_device_set_deferred_replies(&device_, 1);
    tick_.start();
}

void HapticBridgeDevice::transmit(void *ctx, const uint8_t *bytes, uint16_t length)
{
    /* a HardwareSerial blocks here only while its transmit ring is full */
    static_cast<HapticBridgeDevice *>(ctx)->link_->write(bytes, length);
}

uint16_t HapticBridgeDevice::subtick(void *ctx)
{
    return static_cast<HapticBridgeDevice *>(ctx)->tick_.subtick();
}

/* Between the pieces of a long frame (hb_device_set_yield): the steps that came due meanwhile. */
void HapticBridgeDevice::yield(void *ctx)
{
    static_cast<HapticBridgeDevice *>(ctx)->runDueSteps();
}

/* DIAG (PROTOCOL.md 2.18): the stage's report. */
void HapticBridgeDevice::diag(void *ctx, uint8_t *payload)
{
    static_cast<HapticBridgeDevice *>(ctx)->output_->diag(payload);
}

/* The stage's fault; a stage whose begin() failed and that names no fault has 76 UNSUPPORTED, so
 * that the device refuses its plays all the same. */
uint8_t HapticBridgeDevice::stageFault() const
{
    uint8_t code = output_->fault();
    return code != 0u ? code : (stageReady_ ? 0u : (uint8_t)HB_ERR_UNSUPPORTED);
}

void HapticBridgeDevice::runDueSteps()
{
    if (stepping_) {
        return;
    }
    stepping_ = true;
    for (uint8_t n = 0; n < HAPTIC_MAX_STEPS_PER_POLL && tick_.due(); n++) {
        tick_.advance();
        hb_device_set_stage_fault(&device_, stageFault()); /* reported by this step if new */
        /* the sample first, then the step's notices (hb_device.h: step, output, flush) */
        hb_sample s = hb_device_step(&device_);
        output_->write(s.amp, s.sharp, s.flags);
        hb_device_flush(&device_);
    }
    stepping_ = false;
}

/* Received bytes to the device, in order, until none is waiting, a step is due or a frame ends
 * (its final 0x00: the frame takes effect before the next step, PROTOCOL.md 2.3), and never more
 * than the receive buffer holds. Returns true when it stopped at a frame's final 0x00, which
 * poll() then hands over: the frame's handling (on_frame) does not run on top of this loop's
 * saved registers, the deepest the stack goes.
 *
 * Whether a step is due is asked every DUE_EVERY bytes, not before each: tick_.due() reads
 * micros(), about 200 cycles on an Uno with the call, while a byte comes every 320 cycles at
 * 500 kbaud. Asked before every byte (with a frame's handling inlined into this loop, its
 * registers spilled at every byte), the loop took about 570 cycles a byte with the serial
 * interrupt: a host's back-to-back STREAM_DATA frames within their credit and the command after
 * them (182 bytes, which PROTOCOL.md 2.5 allows) filled the 64-byte serial ring, a frame was lost
 * and the stream underran. Now about 380: the ring peaks at 47 bytes there (ArduinoLibraryTests),
 * and a due step waits for at most DUE_EVERY - 1 bytes more (about 0.15 ms). */
static const uint8_t DUE_EVERY = 8;

bool HapticBridgeDevice::receive()
{
    uint8_t k = 0;
    for (uint16_t n = config_.rx_buffer; n > 0u; n--) {
        if (k == 0u) {
            if (tick_.due()) {
                return false;
            }
            k = DUE_EVERY;
        }
        k--;
        int byte = link_->read();
        if (byte < 0) {
            return false;
        }
        if (byte == 0) {
            return true; /* the frame's end: poll() hands it over */
        }
        hb_device_receive_byte(&device_, (uint8_t)byte);
    }
    return false;
}

void HapticBridgeDevice::poll()
{
    if (link_ == nullptr) {
        return; /* before begin() */
    }
    runDueSteps();
    if (hb_device_pending(&device_)) {
        /* the reply to the last frame: now if no step is near, else the flush after that step
         * sends it (the device would send it before taking another byte, so bytes wait too) */
        if (!tick_.near(HB_ARDUINO_FLUSH_GUARD_US)) {
            hb_device_flush(&device_);
        }
        return;
    }
    if (receive()) {
        /* a frame's final 0x00, and so the frame's handling: here rather than inside receive(),
         * whose registers would otherwise stay on the stack under the handler's */
        hb_device_receive_byte(&device_, 0);
    }
}
