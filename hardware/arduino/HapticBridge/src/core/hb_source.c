#include "hb_source.h"

#include <stddef.h>
#include <string.h>

void hb_source_flat(hb_source *src, const uint8_t *body, uint32_t length)
{
    src->data = body;
    src->ring = NULL;
    src->capacity = length;
    src->written = length;
    src->released = 0;
}

uint8_t hb_source_ring(hb_source *src, uint8_t *storage, uint32_t capacity)
{
    if (capacity == 0 || (capacity & (capacity - 1u)) != 0) {
        return 0;
    }
    src->data = storage;
    src->ring = storage;
    src->capacity = capacity;
    src->written = 0;
    src->released = 0;
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
