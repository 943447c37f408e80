/* Device configuration (firmware-protocol/PROTOCOL.md, 1.2): fixed per board or set by the
 * host; a program never changes it. */
#ifndef HB_CONFIG_H
#define HB_CONFIG_H

#include <stdint.h>

#define HB_DEFAULT_RATE 1000u
#define HB_DEFAULT_MAX_BODY 4096u
#define HB_DEFAULT_BRAKE_TICKS 20u
#define HB_DEFAULT_SAFETY_THRESHOLD 224u
#define HB_DEFAULT_SAFETY_TICKS 30000u

typedef struct hb_config {
    uint32_t max_body;        /* program buffer capacity in body bytes */
    uint32_t safety_ticks;    /* most consecutive samples with amp >= safety_threshold */
    uint16_t rate;            /* tick rate the device runs, Hz */
    uint16_t brake_ticks;     /* brake samples on end, stop-with-brake and faults */
    uint8_t safety_threshold; /* output amplitude counted as full-scale drive */
} hb_config;

void hb_config_default(hb_config *cfg);

#endif
