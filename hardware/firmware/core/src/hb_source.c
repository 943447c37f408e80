#include "hb_source.h"

#include <stddef.h>
#include <string.h>

#include "hb_crc16.h"

/* Every field of a fresh source, flat or ring: nothing released, no CRC taken yet. */
static void source_start(hb_source *src, const uint8_t *data, uint8_t *ring, uint32_t capacity,
                         uint32_t written, uint8_t tail)
{
    src->data = data;
    src->ring = ring;
    src->capacity = capacity;
    src->written = written;
    src->released = 0;
    src->crc_at = 0;
    src->crc = HB_CRC16_INIT;
    src->tail = tail;
}

void hb_source_flat(hb_source *src, const uint8_t *body, uint32_t length)
{
    source_start(src, body, NULL, length, length, 0);
}

uint8_t hb_source_ring(hb_source *src, uint8_t *storage, uint32_t capacity)
{
    return hb_source_ring_mirrored(src, storage, capacity, 0);
}

uint8_t hb_source_ring_mirrored(hb_source *src, uint8_t *storage, uint32_t capacity, uint8_t tail)
{
    if (capacity == 0 || (capacity & (capacity - 1u)) != 0 || tail > capacity
        || (tail != 0 && tail < HB_SOURCE_TAIL)) {
        return 0;
    }
    source_start(src, storage, storage, capacity, 0, tail);
    return 1;
}

uint32_t hb_source_space(const hb_source *src)
{
    if (src->ring == NULL) {
        return 0;
    }
    return src->capacity - (src->written - src->released);
}

uint32_t hb_source_write(hb_source *src, const uint8_t *bytes, uint32_t length)
{
    uint32_t space = hb_source_space(src);
    uint32_t count = length < space ? length : space;
    uint32_t mask = src->capacity - 1u;
    uint32_t at = src->written & mask;
    /* at most two copies: up to the end of the storage, then from its start */
    uint32_t first = src->capacity - at;
    if (count == 0) {
        return 0;
    }
    if (first > count) {
        first = count;
    }
    memcpy(src->ring + at, bytes, (size_t)first);
    memcpy(src->ring, bytes + first, (size_t)(count - first));
    if (src->tail != 0 && (at < src->tail || first < count)) { /* the ring's first bytes changed */
        memcpy(src->ring + src->capacity, src->ring, src->tail);
    }
    src->written += count;
    return count;
}

uint8_t hb_source_byte(const hb_source *src, uint32_t offset, uint8_t *out)
{
    if (offset >= src->written) {
        return 0;
    }
    *out = src->ring == NULL ? src->data[offset] : src->data[offset & (src->capacity - 1u)];
    return 1;
}

uint8_t hb_source_peek(const hb_source *src, uint32_t offset, uint32_t limit, uint8_t want, uint8_t *buf,
                       const uint8_t **bytes)
{
    uint32_t index, mask;
    uint8_t count, i;
    if (src->written < limit) {
        limit = src->written;
    }
    *bytes = buf;
    if (offset >= limit) {
        return 0;
    }
    count = limit - offset < want ? (uint8_t)(limit - offset) : want;
    if (src->ring == NULL) {
        *bytes = src->data + offset;
        return count;
    }
    mask = src->capacity - 1u;
    index = offset & mask;
    if (src->capacity - index >= count) {
        *bytes = src->data + index;
        return count;
    }
    for (i = 0; i < count; i++) { /* across the wrap */
        buf[i] = src->data[(offset + i) & mask];
    }
    return count;
}

void hb_source_release(hb_source *src, uint32_t offset)
{
    if (offset > src->released && offset <= src->written) {
        src->released = offset;
    }
}

uint8_t hb_source_crc_ahead(hb_source *src, uint32_t limit, uint8_t max)
{
    uint32_t end = src->written < limit ? src->written : limit;
    uint32_t at = src->crc_at, n;
    const uint8_t *p = src->data;
    if (at >= end) {
        return 0;
    }
    n = end - at;
    if (src->ring == NULL) {
        p += at;
    } else {
        uint32_t index = at & (src->capacity - 1u);
        p += index;
        if (n > src->capacity - index) {
            n = src->capacity - index;
        }
    }
    if (n > max) {
        n = max;
    }
    src->crc = hb_crc16(src->crc, p, (size_t)n);
    src->crc_at = at + n;
    return (uint8_t)(src->crc_at < end);
}
