/* The play records (PROTOCOL.md 2.19): what the notices of the two most recent plays said, kept so
 * that a host that lost some of them learns the outcome with QUERY; and STATUS, the answer. */
#include <string.h>

#include "hb_device_private.h"

/* A pending play that ends without starting (the watchdog, a stage fault): a record of its own. */
void hb_dev_play_fault_pending(hb_session *dev, uint8_t code, uint32_t tick)
{
    hb_dev_play_begin(dev, dev->pending_seq, dev->pending_slot, HB_EVENT_FAULT, tick);
    dev->plays[0].code = code;
}

/* QUERY (2.19): STATUS with the QUERY's seq, at once; sent like DIAG_REPORT (too long to hold). */
void hb_dev_on_query(hb_session *dev, uint8_t seq, const uint8_t *p, uint8_t n)
{
    uint8_t out[HB_LEN_STATUS];
    uint8_t index = n >= 1u ? p[0] : 0u;
    memset(out, 0, sizeof out);
    hb_dev_put_u32(out, dev->now);
    out[4] = dev->pending ? dev->pending_slot : HB_NO_SLOT;
    out[5] = dev->pending ? dev->pending_seq : 0u;
    out[6] = index;
    out[15] = 0xFFu;
    out[16] = 0xFFu;
    if (index < HB_PLAY_HISTORY && dev->plays[index].state != 0u) {
        const hb_device_play *r = &dev->plays[index];
        out[7] = r->state;
        out[8] = r->seq;
        out[9] = r->slot;
        out[10] = r->code;
        hb_dev_put_u32(out + 11, r->start);
        out[15] = (uint8_t)(r->first & 0xFFu);
        out[16] = (uint8_t)(r->first >> 8);
        hb_dev_put_u32(out + 17, r->end);
    }
    hb_dev_send_frame(dev, HB_MSG_STATUS, seq, out, sizeof out, 1);
}
