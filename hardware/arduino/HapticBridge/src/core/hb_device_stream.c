/* The stream (PROTOCOL.md 2.10): STREAM_OPEN, STREAM_DATA into the ring the interpreter plays
 * from, and CREDIT. A step's own credit update is hb_device_step.c's phase 8. */
#include <string.h>

#include "hb_device_private.h"
#include "hb_program.h"

static uint32_t stream_limit(const hb_device *dev)
{
    uint32_t body = hb_dev_stream_body_length(dev);
    uint32_t released = dev->ring.released;
    return body - released <= dev->cfg->stream_capacity ? body : released + dev->cfg->stream_capacity;
}

void hb_dev_send_credit(hb_device *dev)
{
    dev->granted = stream_limit(dev);
    if (dev->in_step) {
        hb_dev_queue_notice(dev, HB_DEVICE_NOTICE_CREDIT, 0, 0);
    } else {
        hb_dev_credit_frame(dev);
    }
}

void hb_dev_stream_close(hb_device *dev)
{
    dev->stream_state = STREAM_CLOSED;
}

reply hb_dev_cmd_stream_open(hb_device *dev, const uint8_t *p, uint8_t n)
{
    reply r;
    hb_header header;
    hb_err err;
    if (n < HB_LEN_STREAM_OPEN) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    if (dev->cfg->stream_capacity == 0u) {
        return hb_dev_nack(HB_ERR_UNSUPPORTED, 0);
    }
    if (dev->stream_state == STREAM_PLAYING || (dev->pending && dev->pending_slot == HB_STREAM_SLOT)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    err = hb_header_parse(p, HB_LEN_STREAM_OPEN, &dev->cfg->core, &header);
    if (err != HB_OK) {
        return hb_dev_nack(err, 0);
    }
    memcpy(dev->stream_header, p, HB_LEN_STREAM_OPEN);
    (void)hb_source_ring_mirrored(&dev->ring, dev->ring_storage, dev->cfg->stream_capacity,
                                  dev->cfg->stream_tail);
    dev->stream_state = STREAM_OPEN;
    r = hb_dev_ack(dev->cfg->stream_capacity);
    r.after = AFTER_CREDIT;
    return r;
}

void hb_dev_on_stream_data(hb_device *dev, const uint8_t *p, uint8_t n)
{
    uint32_t offset = hb_dev_get_u32(p);
    uint32_t count = (uint32_t)n - HB_LEN_STREAM_DATA;
    uint32_t next = dev->ring.written;
    if (dev->stream_state == STREAM_CLOSED) {
        return;
    }
    if (count == 0u || offset != next || count > stream_limit(dev) - next) {
        hb_dev_send_credit(dev);
        return;
    }
    (void)hb_source_write(&dev->ring, p + HB_LEN_STREAM_DATA, count);
    /* The body's CRC (1.14) of what arrived, here rather than in the steps that read it: 8 bytes
     * a piece (about 250 cycles on the ATmega328P, as an UPLOAD's), due steps run between pieces.
     * The frame's effect, the bytes in the ring, is complete before the first yield. */
    while (hb_source_crc_ahead(&dev->ring, hb_dev_stream_body_length(dev), 8u)) {
        hb_dev_yield(dev);
    }
}
