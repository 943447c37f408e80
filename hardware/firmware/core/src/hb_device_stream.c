/* The stream (PROTOCOL.md 2.10): STREAM_OPEN, STREAM_DATA into the ring the interpreter plays
 * from, and CREDIT. A step's own credit update is hb_device_step.c's phase 8. */
#include <string.h>

#include "hb_device_private.h"
#include "hb_port.h"
#include "hb_program.h"

HB_NOINLINE uint32_t hb_dev_stream_limit(const hb_session *dev)
{
    uint32_t body = hb_dev_stream_body_length(dev);
    uint32_t released = dev->ring.released;
    return body - released <= hb_dev_stream_capacity(dev) ? body : released + hb_dev_stream_capacity(dev);
}

void hb_dev_send_credit(hb_session *dev)
{
    dev->granted = hb_dev_stream_limit(dev);
    if (dev->in_step) {
        hb_dev_queue_notice(dev, HB_DEVICE_NOTICE_CREDIT, 0, 0);
    } else {
        hb_dev_credit_frame(dev);
    }
}

void hb_dev_stream_close(hb_session *dev)
{
    dev->stream_state = STREAM_CLOSED;
}

reply hb_dev_cmd_stream_open(hb_session *dev, const uint8_t *p, uint8_t n)
{
    reply r;
    hb_header header;
    hb_err err;
    if (n < HB_LEN_STREAM_OPEN) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    if (hb_dev_stream_capacity(dev) == 0u) {
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
    (void)hb_source_ring_mirrored(&dev->ring, dev->ring_storage, hb_dev_stream_capacity(dev),
                                  dev->cfg->stream_tail);
    dev->stream_state = STREAM_OPEN;
    r = hb_dev_ack(hb_dev_stream_capacity(dev));
    r.after = AFTER_CREDIT;
    return r;
}

/* A STREAM_DATA frame as it is decoded (PROTOCOL.md 2.10 rule 3 ahead of its end): its data goes
 * straight into the ring, above `next`, and into a CRC of the body from the ring's (1.14), so that
 * the frame's end only counts the bytes in. A byte is placed and taken into the CRC two bytes
 * behind the decoder, like the frame's own CRC (hb_frame.c): the frame's last two bytes are its CRC
 * field, not data. Nothing below `next` changes, so a step that runs between the frame's bytes
 * reads the ring as before, and a frame that ends badly (its CRC, rule 2) leaves only unwritten
 * bytes behind.
 * rx_placing is 0 when the frame's data is not being placed, else 1 + the free bytes left above
 * `next` (at most 254), counted when the data began: a host within its credit stays within them,
 * since its credit came before the frame (released only grows). A byte beyond them is not placed
 * (rx_placing 0); the frame's end then copies the data from the frame if rule 2 lets it in. The
 * count keeps the 32-bit ring arithmetic out of the per-byte path. */
void hb_dev_stream_byte(hb_session *dev, uint8_t at)
{
    hb_source *src = &dev->ring;
    uint8_t placing = dev->rx_placing;
    if (!HB_PORT_STREAM) {
        return;
    }
    if (at == STREAM_DATA_AT) {
        placing = 0;
        if (dev->stream_state != STREAM_CLOSED
            && hb_dev_get_u32(dev->rx.buffer + HB_FRAME_HEADER_SIZE) == src->written) {
            uint32_t room = hb_source_space(src);
            placing = (uint8_t)(1u + (room < 254u ? room : 254u));
        }
        dev->rx_crc = src->crc;
    } else if (at >= STREAM_DATA_AT + HB_FRAME_CRC_SIZE && placing != 0u) {
        if (placing > 1u) {
            uint8_t byte = dev->rx.buffer[at - HB_FRAME_CRC_SIZE];
            size_t index = ((size_t)src->written + (size_t)(at - (STREAM_DATA_AT + HB_FRAME_CRC_SIZE)))
                           & (size_t)(src->capacity - 1u);
            src->ring[index] = byte;
            if (index < src->tail) { /* the mirrored tail (hb_source_ring_mirrored) */
                src->ring[(size_t)src->capacity + index] = byte;
            }
            dev->rx_crc = HB_PORT_CRC16_UPDATE(dev->rx_crc, byte);
            placing--;
        } else {
            placing = 0; /* past the free bytes */
        }
    } else {
        return;
    }
    dev->rx_placing = placing;
}

void hb_dev_on_stream_data(hb_session *dev, const uint8_t *p, uint8_t n)
{
    uint32_t offset = hb_dev_get_u32(p);
    uint32_t count = (uint32_t)n - HB_LEN_STREAM_DATA;
    uint32_t next = dev->ring.written;
    uint8_t placed = dev->rx_placing;
    dev->rx_placing = 0;
    if (!HB_PORT_STREAM || dev->stream_state == STREAM_CLOSED) {
        return;
    }
    if (count == 0u || offset != next || count > hb_dev_stream_limit(dev) - next) {
        hb_dev_send_credit(dev);
        return;
    }
    if (placed) {
        /* every byte is in the ring and in the CRC already (hb_dev_stream_byte): the frame's
         * effect is to count them in, so it takes no time however long the frame */
        dev->ring.written = next + count;
        dev->ring.crc = dev->rx_crc;
        dev->ring.crc_at = next + count;
        return;
    }
    /* Bytes that came beyond the ring's free space at the time (a host past its credit, whose
     * frame fits by its end): copied now. The body's CRC (1.14) of what arrived, here rather than
     * in the steps that read it: 8 bytes a piece (about 250 cycles on the ATmega328P, as an
     * UPLOAD's), due steps run between pieces. The frame's effect, the bytes in the ring, is
     * complete before the first yield. */
    (void)hb_source_write(&dev->ring, p + HB_LEN_STREAM_DATA, count);
    while (hb_source_crc_ahead(&dev->ring, hb_dev_stream_body_length(dev), 8u)) {
        hb_dev_yield(dev);
    }
}
