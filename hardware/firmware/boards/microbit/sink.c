/* The recording output stage (sink.h). */
#include "sink.h"

#include "semihost.h"

static uint8_t record[HB_SINK_RECORD_SIZE];

void hb_hal_output_init(void)
{
    (void)hb_semihost_open_console();
    record[0] = 0u;
    record[1] = 0u;
    record[2] = 0u;
}

void hb_hal_output(uint8_t amp, uint8_t sharp, uint8_t flags)
{
    record[0] = amp;
    record[1] = sharp;
    record[2] = flags;
}

void hb_sink_emit(uint16_t bytes_taken, uint32_t step_counts)
{
    uint16_t counts = step_counts > 0xFFFFu ? 0xFFFFu : (uint16_t)step_counts;
    record[3] = HB_SINK_RECORD_MARK;
    record[4] = (uint8_t)bytes_taken;
    record[5] = (uint8_t)(bytes_taken >> 8);
    record[6] = (uint8_t)counts;
    record[7] = (uint8_t)(counts >> 8);
    hb_semihost_write(record, HB_SINK_RECORD_SIZE);
}
