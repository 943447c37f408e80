/* Blocking TWI (I2C) master on A4 = SDA, A5 = SCL, 400 kHz, with bounded waits so that a
 * missing or stuck device costs at most about 2 ms per transfer (twi.c) instead of hanging. */
#ifndef HB_TWI_H
#define HB_TWI_H

#include <stdint.h>

#define HB_TWI_HZ 400000UL

enum {
    HB_TWI_OK = 0,
    HB_TWI_ERR_TIMEOUT = 1, /* the bus did not answer within the spin limit */
    HB_TWI_ERR_START = 2,   /* START not acknowledged by the hardware (bus busy) */
    HB_TWI_ERR_NACK = 3     /* address or data byte not acknowledged */
};

/* I2C bus recovery (the I2C specification, UM10204 3.1.16 "Bus clear"): with the TWI off, while
 * SDA reads low, clock SCL up to 9 times so that a slave cut off mid-byte (by a reset of this MCU)
 * finishes it and lets go, then send a STOP. Returns 1 when SDA is high (the bus is free). */
uint8_t hb_twi_recover(void);
void hb_twi_init(void);
uint8_t hb_twi_write_register(uint8_t address7, uint8_t reg, uint8_t value);
uint8_t hb_twi_read_register(uint8_t address7, uint8_t reg, uint8_t *value);
/* One byte read with no register byte first (a device with a single register: the TCA9548A). */
uint8_t hb_twi_read(uint8_t address7, uint8_t *value);

#endif
