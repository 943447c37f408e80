/* Checks the C frame codec against firmware-protocol/vectors/frames/{frames,cobs}.txt.
 *
 * Usage: test_frames <vectors directory>. Exit status 0 when every vector passes.
 * Host-only test code: uses stdio, but no malloc, like the core it tests. */
#include <stdio.h>
#include <string.h>

#include "hb_cobs.h"
#include "hb_frame.h"

#include "vector_files.h"

#define MAX_BYTES 1024
#define MAX_EVENTS 8
#define LINE_SIZE 2200

typedef struct {
    int is_frame;
    hb_frame_header header;
    uint8_t payload[HB_FRAME_MAX_PAYLOAD];
    size_t payload_length;
    hb_frame_status error;
} event;

static int failures = 0;

static void fail(const char *vector, const char *what)
{
    printf("FAIL %s: %s\n", vector, what);
    failures++;
}

static hb_frame_status error_kind(const char *name)
{
    if (strcmp(name, "too_long") == 0) return HB_FRAME_ERR_TOO_LONG;
    if (strcmp(name, "cobs") == 0) return HB_FRAME_ERR_COBS;
    if (strcmp(name, "short") == 0) return HB_FRAME_ERR_SHORT;
    if (strcmp(name, "crc") == 0) return HB_FRAME_ERR_CRC;
    if (strcmp(name, "version") == 0) return HB_FRAME_ERR_VERSION;
    return HB_FRAME_NONE;
}

static void check_vector(const char *name, const uint8_t *wire, size_t wire_length, const event *expected,
                         size_t expected_count, int roundtrip)
{
    hb_frame_decoder decoder;
    size_t seen = 0;
    size_t i;
    unsigned errors = 0;

    hb_frame_decoder_init(&decoder);
    for (i = 0; i < wire_length; i++) {
        hb_frame_status status = hb_frame_decoder_push(&decoder, wire[i]);
        if (status == HB_FRAME_NONE) continue;
        if (seen >= expected_count) {
            fail(name, "more events than expected");
            return;
        }
        if (status == HB_FRAME_READY) {
            hb_frame_header header;
            const uint8_t *payload;
            uint8_t payload_length;
            hb_frame_decoder_frame(&decoder, &header, &payload, &payload_length);
            if (!expected[seen].is_frame) {
                fail(name, "got a frame, expected an error");
            } else if (memcmp(&header, &expected[seen].header, sizeof header) != 0
                       || payload_length != expected[seen].payload_length
                       || memcmp(payload, expected[seen].payload, payload_length) != 0) {
                fail(name, "frame contents differ");
            }
        } else {
            errors++;
            if (expected[seen].is_frame || expected[seen].error != status) {
                fail(name, "wrong error");
            }
        }
        seen++;
    }
    if (seen != expected_count) fail(name, "fewer events than expected");
    if ((unsigned)decoder.stats.too_long + decoder.stats.cobs + decoder.stats.short_frames + decoder.stats.crc
            + decoder.stats.version
        != errors) {
        fail(name, "error counters disagree with reported errors");
    }
    if (roundtrip) {
        uint8_t encoded[MAX_BYTES];
        size_t length = 0;
        for (i = 0; i < expected_count; i++) {
            size_t n = hb_frame_encode(&expected[i].header, expected[i].payload, expected[i].payload_length,
                                       encoded + length, sizeof encoded - length);
            if (n == 0) {
                fail(name, "encode failed");
                return;
            }
            length += n;
        }
        if (length != wire_length || memcmp(encoded, wire, length) != 0)
            fail(name, "encoding differs from wire");
    }
}

static int run_frames(const char *directory)
{
    char line[LINE_SIZE];
    char name[128] = "";
    uint8_t wire[MAX_BYTES];
    size_t wire_length = 0;
    event expected[MAX_EVENTS];
    size_t expected_count = 0;
    int roundtrip = 0;
    int vectors = 0;
    FILE *file;

    file = vector_open(directory, "frames.txt");
    if (file == NULL) return -1;
    while (fgets(line, sizeof line, file) != NULL) {
        char keyword[16];
        char a[LINE_SIZE];
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0') continue;
        a[0] = '\0';
        if (sscanf(line, "%15s %2199s", keyword, a) < 1) continue;
        if (strcmp(keyword, "vector") == 0) {
            strncpy(name, a, sizeof name - 1u);
            name[sizeof name - 1u] = '\0';
            wire_length = 0;
            expected_count = 0;
            roundtrip = 0;
        } else if (strcmp(keyword, "wire") == 0) {
            long n = vector_hex(a, wire, sizeof wire);
            if (n < 0) fail(name, "bad wire hex");
            wire_length = n < 0 ? 0 : (size_t)n;
        } else if (strcmp(keyword, "frame") == 0 && expected_count < MAX_EVENTS) {
            unsigned v, t, s, f;
            char payload[LINE_SIZE];
            event *e = &expected[expected_count++];
            long n;
            if (sscanf(line, "frame %x %x %x %x %2199s", &v, &t, &s, &f, payload) != 5)
                fail(name, "bad frame line");
            e->is_frame = 1;
            e->header.version = (uint8_t)v;
            e->header.type = (uint8_t)t;
            e->header.sequence = (uint8_t)s;
            e->header.flags = (uint8_t)f;
            n = vector_hex(payload, e->payload, sizeof e->payload);
            if (n < 0) fail(name, "bad payload hex");
            e->payload_length = n < 0 ? 0 : (size_t)n;
        } else if (strcmp(keyword, "error") == 0 && expected_count < MAX_EVENTS) {
            event *e = &expected[expected_count++];
            e->is_frame = 0;
            e->error = error_kind(a);
            if (e->error == HB_FRAME_NONE) fail(name, "unknown error kind");
        } else if (strcmp(keyword, "roundtrip") == 0) {
            roundtrip = 1;
        } else if (strcmp(keyword, "end") == 0) {
            check_vector(name, wire, wire_length, expected, expected_count, roundtrip);
            vectors++;
        } else {
            fail(name, "unknown line");
        }
    }
    fclose(file);
    return vectors;
}

static int run_cobs(const char *directory)
{
    char line[LINE_SIZE * 2];
    int cases = 0;
    FILE *file;

    file = vector_open(directory, "cobs.txt");
    if (file == NULL) return -1;
    while (fgets(line, sizeof line, file) != NULL) {
        static char decoded_hex[LINE_SIZE * 2], encoded_hex[LINE_SIZE * 2];
        uint8_t decoded[MAX_BYTES], encoded[MAX_BYTES], out[MAX_BYTES];
        long decoded_length, encoded_length;
        size_t length = 0;
        if (line[0] == '#' || sscanf(line, "%4399s %4399s", decoded_hex, encoded_hex) != 2) continue;
        decoded_length = vector_hex(decoded_hex, decoded, sizeof decoded);
        encoded_length = vector_hex(encoded_hex, encoded, sizeof encoded);
        cases++;
        if (decoded_length < 0 || encoded_length < 0) {
            fail("cobs", "bad hex");
            continue;
        }
        if (hb_cobs_encode(decoded, (size_t)decoded_length, out, sizeof out, &length) != HB_COBS_OK
            || length != (size_t)encoded_length || memcmp(out, encoded, length) != 0) {
            fail("cobs", "encode differs");
        }
        if ((size_t)encoded_length > HB_COBS_MAX_ENCODED((size_t)decoded_length))
            fail("cobs", "over the size bound");
        if (hb_cobs_decode(encoded, (size_t)encoded_length, out, sizeof out, &length) != HB_COBS_OK
            || length != (size_t)decoded_length || memcmp(out, decoded, length) != 0) {
            fail("cobs", "decode differs");
        }
        /* In place, as the header promises. */
        if (hb_cobs_decode(encoded, (size_t)encoded_length, encoded, sizeof encoded, &length) != HB_COBS_OK
            || length != (size_t)decoded_length || memcmp(encoded, decoded, length) != 0) {
            fail("cobs", "in-place decode differs");
        }
    }
    fclose(file);
    return cases;
}

static unsigned yields;

static void count_yield(void *ctx)
{
    (void)ctx;
    yields++;
}

/* hb_frame_encode's in-place path against the general encoder: every payload length, payloads
 * with no zero, all zeros, and pseudo-random bytes with zeros in every position, at the exact
 * capacity the frame needs and one byte less (both must refuse). Returns the frames compared. */
static int fast_encode_matches_general(void)
{
    static uint8_t payload[HB_FRAME_MAX_PAYLOAD];
    uint8_t fast[HB_FRAME_MAX_WIRE + 1], general[HB_FRAME_MAX_WIRE + 1];
    uint32_t state = 12345u;
    hb_frame_header h = {1, 0x05, 0, 0};
    int compared = 0, kind;
    size_t length, i;
    for (kind = 0; kind < 4; kind++) {
        for (length = 0; length <= HB_FRAME_MAX_PAYLOAD; length++) {
            size_t nf, ng, exact;
            for (i = 0; i < length; i++) {
                state = state * 1103515245u + 12345u;
                payload[i] = kind == 0   ? (uint8_t)(1u + (state >> 16) % 255u)
                             : kind == 1 ? 0u
                             : kind == 2 ? (uint8_t)((state >> 16) % 4u == 0u ? 0u : (state >> 8))
                                         : (uint8_t)(state >> 16);
            }
            h.sequence = (uint8_t)(state >> 24);
            h.type = (uint8_t)length;
            nf = hb_frame_encode(&h, payload, length, fast, sizeof fast);
            ng = hb_frame_encode_general(&h, payload, length, general, sizeof general);
            compared++;
            if (nf == 0u || nf != ng || memcmp(fast, general, nf) != 0) {
                fail("fast encode", "differs from the general encoder");
                continue;
            }
            {
                uint8_t yielded[HB_FRAME_MAX_WIRE + 1];
                yields = 0;
                if (hb_frame_encode_yielding(&h, payload, length, yielded, sizeof yielded, count_yield, NULL)
                        != nf
                    || memcmp(yielded, fast, nf) != 0
                    || yields != (HB_FRAME_HEADER_SIZE + length + 15u) / 16u) {
                    fail("fast encode", "the yielding encoder differs");
                }
            }
            exact = nf;
            if (hb_frame_encode(&h, payload, length, fast, exact) != exact
                || hb_frame_encode(&h, payload, length, fast, exact - 1u) != 0u) {
                fail("fast encode", "capacity bound differs");
            }
        }
    }
    return compared;
}

int main(int argc, char **argv)
{
    int vectors, cases, compared;
    if (argc != 2) {
        printf("usage: %s <firmware-protocol/vectors/frames>\n", argv[0]);
        return 2;
    }
    vectors = run_frames(argv[1]);
    cases = run_cobs(argv[1]);
    if (vectors <= 0 || cases <= 0) {
        printf("no vectors read\n");
        return 1;
    }
    compared = fast_encode_matches_general();
    printf("test_frames: %d frame vectors, %d COBS vectors, %d frames encoded both ways, %d failures\n",
           vectors, cases, compared, failures);
    return failures == 0 ? 0 : 1;
}
