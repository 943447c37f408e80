/* HapticBridge for Arduino: the protocol device of HapticBridge (firmware-protocol/PROTOCOL.md) on
 * any Arduino board, beside the sketch's own code. A host (`haptic play --port ...`) uploads and
 * plays programs compiled from AHAP patterns; the library runs the firmware's portable core (the
 * same C sources as the bare-metal ATmega328P firmware, copied into src/core/ by
 * tools/arduino-library) and drives the output stage the sketch chose.
 *
 *     #include <HapticBridge.h>
 *     #include <HapticDRV2605L.h>      // the DRV2605L stage, and Wire with it
 *     HapticDRV2605L driver(Wire);
 *     HapticBridge haptic;
 *     void setup() { haptic.begin(Serial, 500000, driver, HapticProfiles::LRA_DRV2605L_170HZ_10MM); }
 *     void loop() { haptic.poll(); ... }
 *
 * poll() does a bounded amount of work per call (hardware/arduino/README.md, "Timing"): the
 * device steps that are due, at most HAPTIC_MAX_STEPS_PER_POLL (4) of them, each one interpreter
 * tick, its output written to the stage, its notices sent; then either the reply held for the
 * last frame (ACK, NACK or PONG, encoded and sent only when no step is due within
 * HB_ARDUINO_FLUSH_GUARD_US, else after that step) or received bytes, until none is waiting, a
 * step comes due, or a frame ends (so at most one frame is handled per call: a frame's long
 * pieces, an UPLOAD's checksums or a COMMIT's validation, run due steps between them). Call it
 * at least every millisecond for on-time ticks, and keep the gaps shorter than the serial port's
 * receive buffer takes to fill (64 bytes: 1.3 ms at 500 kbaud, 5.5 ms at 115,200) while a host
 * streams at line rate. */
#ifndef HAPTIC_BRIDGE_H
#define HAPTIC_BRIDGE_H

#include <Arduino.h>

#include "hb_port_config.h" /* first: it stops the build with a clear #error if src/core/ is missing */

extern "C" {
#include "core/hb_device.h"
}

#include "HapticMotor.h"
#include "HapticOutput.h"
#include "HapticPlayer.h"
#include "HapticTick.h"

/* Reported in INFO as the firmware version; library.properties says the same. */
#define HAPTICBRIDGE_VERSION_MAJOR 0
#define HAPTICBRIDGE_VERSION_MINOR 1
#define HAPTICBRIDGE_VERSION_PATCH 0

/* The device, over memory that the HapticBridgeWith template below provides. */
class HapticBridgeDevice
{
  public:
    /* Starts the output stage (a DRV2605L calibrates for about 1.2 s), then `port` at `baud`,
     * then the device, which sends the RESET notice (PROTOCOL.md 2.6). The stage comes first so
     * that a host's HELLOs meanwhile are not left in the port's buffer. Returns the stage's
     * begin(): false if it is absent or does not fit the profile. The device runs anyway, to tell
     * the host why (INFO, TELEMETRY FAULT, DIAG_REPORT: the stage's fault(), or 76 UNSUPPORTED when
     * it names none), and refuses every play: the stage never drives. */
    template <typename Port>
    bool begin(Port &port, unsigned long baud, HapticOutput &output, const HapticProfile &profile)
    {
        bool ok = output.begin(profile);
        port.begin(baud);
        start(port, output, profile, ok);
        return ok;
    }

    /* The same over a link the sketch has started itself (any Stream: a SoftwareSerial, a
     * Bluetooth serial, ...). */
    bool begin(Stream &link, HapticOutput &output, const HapticProfile &profile)
    {
        bool ok = output.begin(profile);
        start(link, output, profile, ok);
        return ok;
    }

    /* Before begin(): the receive buffer reported to the host (INFO rx_buffer, PROTOCOL.md 2.5),
     * which never has more than this many bytes in flight. Default: the AVR HardwareSerial's 63
     * (its 64-byte ring holds 63), or 63 on other cores; a link with a larger buffer may say so. */
    void setReceiveBuffer(uint16_t bytes)
    {
        rxBuffer_ = bytes;
    }

    /* The library's work: due steps, then received bytes (above). */
    void poll();

    /* Device ticks run since begin() (PROTOCOL.md 2.3's `now`). */
    uint32_t ticks() const
    {
        return device_.s.now;
    }
    /* A play is running or braking. */
    bool playing() const
    {
        return device_.s.active != 0;
    }
    /* Times the tick schedule slipped because poll() was not called for 20 ms (HapticTick.h). */
    uint16_t slips() const
    {
        return tick_.slips();
    }

  protected:
    HapticBridgeDevice(uint8_t *memory, uint8_t slots, uint16_t slotCapacity, uint8_t *ring,
                       uint16_t ringCapacity)
        : memory_(memory), ring_(ring), slotCapacity_(slotCapacity), ringCapacity_(ringCapacity),
          slots_(slots)
    {
    }

  private:
    /* Not inlined (HB_NOINLINE, hb_port.h): with link-time optimisation a function inlined into
     * main() keeps its locals in main()'s frame for good, and these two have large ones (the
     * frame handlers' payloads), which every step would then run on top of. */
    HB_NOINLINE void start(Stream &link, HapticOutput &output, const HapticProfile &profile, bool ready);
    void runDueSteps();
    uint8_t stageFault() const;
    HB_NOINLINE bool receive(); /* true: it stopped at a frame's final 0x00, not yet handed over */
    static void transmit(void *ctx, const uint8_t *bytes, uint16_t length);
    static uint16_t subtick(void *ctx);
    static void yield(void *ctx);
    static void diag(void *ctx, uint8_t *payload);

    hb_device device_;
    hb_device_config config_;
    HapticTick tick_;
    Stream *link_ = nullptr;
    HapticOutput *output_ = nullptr;
    uint8_t *memory_;
    uint8_t *ring_;
    uint16_t slotCapacity_;
    uint16_t ringCapacity_;
    uint16_t rxBuffer_ = 0; /* 0: the default */
    uint8_t slots_;
    bool stepping_ = false;   /* runDueSteps is running (the yield hook must not re-enter it) */
    bool stageReady_ = false; /* the stage's begin() succeeded */
};

/* A device with its memory: Slots program slots of SlotCapacity bytes (header included; the
 * largest body is SlotCapacity - 16) and a stream ring of StreamCapacity bytes (a power of two; 0:
 * no streaming). */
template <uint8_t Slots, uint16_t SlotCapacity, uint16_t StreamCapacity>
class HapticBridgeWith : public HapticBridgeDevice
{
    static_assert(Slots >= 1 && Slots <= HB_DEVICE_MAX_SLOTS,
                  "1 to HB_DEVICE_MAX_SLOTS slots (8; 2 on an AVR)");
    static_assert(SlotCapacity > 16, "a slot holds the 16-byte header and a body");
    static_assert((StreamCapacity & (StreamCapacity - 1)) == 0, "the stream ring is a power of two (or 0)");
#if defined(RAMEND) && defined(RAMSTART)
    /* the measured stack (hb_port_config.h) and a reserve beyond it fit beside the static data */
    static_assert(
        (uint32_t)Slots * SlotCapacity + (StreamCapacity ? StreamCapacity + HB_SOURCE_TAIL : 1u)
                + HB_ARDUINO_FIXED_RAM + HB_ARDUINO_STACK_WORST + HB_ARDUINO_STACK_RESERVE
            <= (uint32_t)RAMEND - RAMSTART + 1u,
        "HapticBridgeWith: these sizes leave the stack less than 64 bytes beyond its measured worst "
        "(361 bytes, beside 1,072 bytes of other static data: hb_port_config.h); use fewer or smaller slots");
#endif

  public:
    HapticBridgeWith() : HapticBridgeDevice(memory_, Slots, SlotCapacity, ring_, StreamCapacity)
    {
    }

  private:
    uint8_t memory_[(uint32_t)Slots * SlotCapacity];
    /* the ring and its mirrored tail (hb_source.h: streamed instructions read across the wrap in place) */
    uint8_t ring_[StreamCapacity ? StreamCapacity + HB_SOURCE_TAIL : 1];
};

/* The board's default memory (hb_port_config.h): 2 slots of 192 bytes and a 128-byte ring on an AVR,
 * 4 slots of 1,024 bytes and a 256-byte ring elsewhere. */
typedef HapticBridgeWith<HB_ARDUINO_SLOTS, HB_ARDUINO_SLOT_CAPACITY, HB_ARDUINO_STREAM_CAPACITY> HapticBridge;

#endif
