/* Filling a slot (PROTOCOL.md 2.7): UPLOAD writes a program into a slot in order, in pieces;
 * COMMIT checks its length and CRC (hb_dev_commit_checks, which the 3.0 device shares) and
 * validates it, after which PLAY may start it (hb_device.c). */
#include <string.h>

#include "hb_crc16.h"
#include "hb_device_private.h"
#include "hb_port.h"
#include "hb_program.h"
#include "hb_validate.h"

static uint8_t slot_busy(const hb_session *dev, uint8_t slot)
{
    return (uint8_t)((dev->active && dev->plays[0].slot == slot)
                     || (dev->pending && dev->pending_slot == slot));
}

HB_NOINLINE void hb_dev_slot_empty(hb_session *dev, uint8_t slot)
{
    dev->slots[slot].fill = 0;
    dev->slots[slot].ready = 0;
}

/* Long frame handling runs in pieces with the board's yield hook between them (hb_device.h):
 * an UPLOAD's data is copied into the slot and run through both CRCs PIECE bytes at a time, so a
 * step that comes due waits at most about one piece (it was one 115-byte copy plus 32 bytes of
 * CRC, about 2,900 cycles on the ATmega328P). 8 bytes kept a piece near 1,100 cycles when the
 * CRC was avr-libc's, about 60 cycles a byte with its call, twice; the AVR port's CRC
 * (hb_port_avr.h, inlined into hb_crc16's loop) makes a piece shorter still. */
#define PIECE 8u

reply hb_dev_cmd_upload(hb_session *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot;
    uint32_t offset, count;
    hb_device_slot *s;
    if (n < HB_LEN_UPLOAD) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    offset = hb_dev_get_u32(p + 1);
    count = (uint32_t)n - HB_LEN_UPLOAD_FIELDS;
    if (slot >= dev->cfg->slot_count) {
        return hb_dev_nack(HB_ERR_BAD_SLOT, 0);
    }
    if (slot_busy(dev, slot)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    s = &dev->slots[slot];
    if (offset != 0u && offset != s->fill) {
        return hb_dev_nack(HB_ERR_BAD_OFFSET, s->fill);
    }
    if (count > dev->cfg->slot_capacity - offset) { /* offset <= fill <= capacity */
        return hb_dev_nack(HB_ERR_NO_SPACE, dev->cfg->slot_capacity);
    }
    {
        /* Uploads arrive in order (offset 0 restarts, anything else continues at fill), so two
         * running CRCs, of the slot and of the body past the header, spare COMMIT both passes.
         * Copied and checksummed PIECE bytes at a time, yielding after each piece. */
        uint8_t *dst = hb_dev_slot_bytes(dev, slot) + offset;
        const uint8_t *src = p + HB_LEN_UPLOAD_FIELDS;
        uint8_t header_part = offset < HB_HEADER_SIZE ? (uint8_t)(HB_HEADER_SIZE - offset) : 0u;
        uint16_t crc = offset == 0u ? HB_CRC16_INIT : s->crc;
        uint16_t body_crc = offset == 0u ? HB_CRC16_INIT : s->body_crc;
        uint8_t done = 0;
        if (header_part > count) {
            header_part = (uint8_t)count;
        }
        while (done < (uint8_t)count) {
            uint8_t left = (uint8_t)((uint8_t)count - done);
            uint8_t piece = left < (uint8_t)PIECE ? left : (uint8_t)PIECE;
            uint8_t end = (uint8_t)(done + piece);
            memcpy(dst + done, src + done, piece);
            crc = hb_crc16(crc, dst + done, piece);
            if (end > header_part) {
                uint8_t from = done > header_part ? done : header_part;
                body_crc = hb_crc16(body_crc, dst + from, (size_t)(end - from));
            }
            done = end;
            hb_dev_yield(dev);
        }
        s->crc = crc;
        s->body_crc = body_crc;
    }
    s->fill = offset + count;
    s->ready = 0;
    return hb_dev_ack(s->fill);
}

reply hb_dev_commit_checks(hb_session *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot;
    uint32_t length;
    uint16_t crc;
    if (n < HB_LEN_COMMIT) {
        return hb_dev_nack(HB_ERR_BAD_LENGTH, 0);
    }
    slot = p[0];
    length = hb_dev_get_u32(p + 1);
    if (slot >= dev->cfg->slot_count) {
        return hb_dev_nack(HB_ERR_BAD_SLOT, 0);
    }
    if (slot_busy(dev, slot)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    if (length != dev->slots[slot].fill) {
        return hb_dev_nack(HB_ERR_COMMIT_LENGTH, dev->slots[slot].fill);
    }
    crc = length == 0u ? HB_CRC16_INIT : dev->slots[slot].crc; /* running CRC of the uploads */
    if (crc != hb_dev_get_u16(p + 5)) {
        hb_dev_slot_empty(dev, slot);
        return hb_dev_nack(HB_ERR_CHECKSUM_MISMATCH, crc);
    }
    return hb_dev_ack(length);
}

reply hb_dev_cmd_commit(hb_session *dev, const uint8_t *p, uint8_t n)
{
    uint8_t slot;
    uint32_t length;
    hb_header header;
    hb_err err;
    reply r = hb_dev_commit_checks(dev, p, n);
    if (r.code != 0u) {
        return r;
    }
    slot = p[0];
    length = r.value;
    err = hb_program_validate_with_crc(hb_dev_slot_bytes(dev, slot), length, &dev->cfg->core, &header,
                                       length > HB_HEADER_SIZE ? dev->slots[slot].body_crc : HB_CRC16_INIT,
                                       dev->yield, dev->ctx);
    if (err != HB_OK) {
        hb_dev_slot_empty(dev, slot);
        return hb_dev_nack(err, 0);
    }
    dev->slots[slot].ready = 1;
    return hb_dev_ack(header.total_ticks);
}
