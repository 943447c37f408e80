/* CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).
 * Check value: hb_crc16(0xFFFF, "123456789", 9) == 0x29B1. */
#ifndef HB_CRC16_H
#define HB_CRC16_H

#include <stddef.h>
#include <stdint.h>

#define HB_CRC16_INIT 0xFFFFu

uint16_t hb_crc16_update(uint16_t crc, uint8_t byte);
/* The definition, one bit at a time: the reference the byte-wise update is tested against. */
uint16_t hb_crc16_update_bitwise(uint16_t crc, uint8_t byte);
uint16_t hb_crc16(uint16_t crc, const uint8_t *data, size_t length);

#endif
