/* Slots and the stream of the 3.0 device: UPLOAD, COMMIT and STREAM_OPEN are 2.0's (2.7, 2.10)
 * with format 3 programs (PROTOCOL-3.md 3.1: hb_program_validate_format, rule (f) and the peak)
 * and 3.3's busy slots. COMMIT keeps each slot's peak, the work figure of 3.9. */
#include <string.h>

#include "hb_crc16.h"
#include "hb_device3_private.h"
#include "hb_program.h"
#include "hb_validate.h"

void hb_dev3_slot_header(const hb_device3 *d, uint8_t slot, hb_header *header)
{
    /* committed: rules 1-5 passed */
    hb_err err = hb_header_parse_format(hb_dev_slot_bytes(&d->dev, slot), HB_HEADER_SIZE, &d->dev.cfg->core,
                                        HB_FORMAT_VERSION_3, header);
    (void)err;
}

/* A slot is busy while a PENDING or PLAYING player has it (3.3). */
static uint8_t slot_busy(const hb_device3 *d, const uint8_t *p, uint8_t n, uint8_t length)
{
    uint8_t i;
    if (n < length || p[0] >= d->dev.cfg->slot_count) {
        return 0; /* 2.0's checks come first */
    }
    for (i = 0; i < d->cfg->players; i++) {
        if (hb_dev3_live(&d->players[i]) && d->players[i].slot == p[0]) {
            return 1;
        }
    }
    return 0;
}

reply hb_dev3_cmd_upload(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    if (slot_busy(d, p, n, HB_LEN_UPLOAD)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    return hb_dev_cmd_upload(&d->dev, p, n);
}

HB_NOINLINE reply hb_dev3_cmd_commit(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    hb_session *dev = &d->dev;
    hb_header header;
    hb_program_info info;
    hb_err err;
    uint16_t body_crc;
    reply r;
    if (slot_busy(d, p, n, HB_LEN_COMMIT)) {
        return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
    }
    r = hb_dev_commit_checks(dev, p, n);
    if (r.code != 0u) {
        return r;
    }
    info.peak = 0;
    body_crc = r.value > HB_HEADER_SIZE ? dev->slots[p[0]].body_crc : HB_CRC16_INIT;
    /* rule (f) and X (3.1, 3.5) only with SEEK; the peak always (3.13) */
    err = hb_program_validate_seek(hb_dev_slot_bytes(dev, p[0]), r.value, &dev->cfg->core, hb_dev3_seek(d),
                                   &body_crc, dev->yield, dev->ctx, &header, &info);
    if (err != HB_OK) {
        hb_dev_slot_empty(dev, p[0]);
        return hb_dev_nack(err, 0);
    }
    dev->slots[p[0]].ready = 1;
    d->slot_peak[p[0]] = info.peak;
    return hb_dev_ack(header.total_ticks);
}

reply hb_dev3_cmd_stream_open(hb_device3 *d, const uint8_t *p, uint8_t n)
{
    uint8_t copy[HB_LEN_STREAM_OPEN];
    uint8_t i, length = n < HB_LEN_STREAM_OPEN ? n : (uint8_t)HB_LEN_STREAM_OPEN;
    if (hb_dev_stream_capacity(&d->dev) == 0u) { /* 2.0's NACK (BAD_LENGTH, UNSUPPORTED) reads no byte */
        return hb_dev_cmd_stream_open(&d->dev, p, n);
    }
    if (n >= HB_LEN_STREAM_OPEN) {
        for (i = 0; i < d->cfg->players; i++) {
            if (d->players[i].state == HB_PLAYER_PENDING && d->players[i].slot == HB_STREAM_SLOT) {
                return hb_dev_nack(HB_ERR_SLOT_BUSY, 0);
            }
        }
    }
    /* 2.0's STREAM_OPEN on a copy whose version byte says what 3.0's rule 3 says of the original
     * (3: format 3 reads as 2, else an invalid one): the stored header then plays on 2.0's
     * interpreter, whose streamed body and CRC are format 2's */
    memcpy(copy, p, length);
    if (length == HB_LEN_STREAM_OPEN && copy[0] == HB_MAGIC_0 && copy[1] == HB_MAGIC_1) {
        copy[2] = copy[2] == HB_FORMAT_VERSION_3 ? HB_FORMAT_VERSION : 0u;
    }
    return hb_dev_cmd_stream_open(&d->dev, copy, length);
}
