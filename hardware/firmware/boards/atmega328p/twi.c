/* TWI master, polled. Status codes are the ATmega328P datasheet's (TWSR & 0xF8). */
#include "twi.h"

#include <avr/io.h>
#include <util/delay.h>

#include "board.h"

#define TWBR_VALUE ((F_CPU / HB_TWI_HZ - 16UL) / 2UL) /* prescaler 1: 12 at 16 MHz */
/* One byte at 400 kHz is 9 SCL periods = 360 cycles; each poll is about 8 cycles, so a wait gives up
 * after 2000 polls, about 1 ms. A transfer that never gets its START (SDA held low) costs one such
 * wait, about 1 ms; one whose STOP never completes either (SCL held low) two, about 2 ms. The stage
 * tries a register access 3 times: 3.0 ms and 6.0 ms at worst, measured in the simulator
 * (DRV2605LEnableTests), after which it drops EN and stops using the bus. */
#define SPIN_LIMIT 2000u

#define TW_START 0x08u
#define TW_REP_START 0x10u
#define TW_MT_SLA_ACK 0x18u
#define TW_MT_DATA_ACK 0x28u
#define TW_MR_SLA_ACK 0x40u
#define TW_MR_DATA_NACK 0x58u

#define SDA _BV(PORTC4) /* A4 */
#define SCL _BV(PORTC5) /* A5 */

/* Open drain by hand: a line is pulled low by making it an output at 0, released by making it an
 * input (the pull-ups, the breakout's and the port's, take it high). */
static void line_low(uint8_t bit)
{
    PORTC &= (uint8_t)~bit;
    DDRC |= bit;
}

static void line_release(uint8_t bit)
{
    DDRC &= (uint8_t)~bit;
    PORTC |= bit;
}

uint8_t hb_twi_recover(void)
{
    TWCR = 0; /* the pins are plain port pins */
    line_release(SDA);
    line_release(SCL);
    _delay_us(5);
    for (uint8_t n = 0; n < 9u && !(PINC & SDA); n++) { /* 100 kHz, within every slave's limits */
        line_low(SCL);
        _delay_us(5);
        line_release(SCL);
        _delay_us(5);
    }
    line_low(SDA); /* STOP: SDA rises while SCL is high */
    _delay_us(5);
    line_release(SDA);
    _delay_us(5);
    return (uint8_t)((PINC & SDA) != 0u);
}

void hb_twi_init(void)
{
    TWSR = 0; /* prescaler 1 */
    TWBR = (uint8_t)TWBR_VALUE;
    TWCR = _BV(TWEN);
}

static uint8_t wait_int(void)
{
    for (uint16_t n = 0; n < SPIN_LIMIT; n++) {
        if (TWCR & _BV(TWINT)) {
            return 1;
        }
    }
    return 0;
}

static void stop(void)
{
    TWCR = _BV(TWINT) | _BV(TWEN) | _BV(TWSTO);
    for (uint16_t n = 0; n < SPIN_LIMIT && (TWCR & _BV(TWSTO)); n++) {
    }
}

static uint8_t start(uint8_t sla)
{
    TWCR = _BV(TWINT) | _BV(TWSTA) | _BV(TWEN);
    if (!wait_int()) {
        return HB_TWI_ERR_TIMEOUT;
    }
    uint8_t status = TWSR & 0xF8u;
    if (status != TW_START && status != TW_REP_START) {
        return HB_TWI_ERR_START;
    }
    TWDR = sla;
    TWCR = _BV(TWINT) | _BV(TWEN);
    if (!wait_int()) {
        return HB_TWI_ERR_TIMEOUT;
    }
    status = TWSR & 0xF8u;
    if (status != ((sla & 1u) ? TW_MR_SLA_ACK : TW_MT_SLA_ACK)) {
        return HB_TWI_ERR_NACK;
    }
    return HB_TWI_OK;
}

static uint8_t send(uint8_t byte)
{
    TWDR = byte;
    TWCR = _BV(TWINT) | _BV(TWEN);
    if (!wait_int()) {
        return HB_TWI_ERR_TIMEOUT;
    }
    return (TWSR & 0xF8u) == TW_MT_DATA_ACK ? HB_TWI_OK : HB_TWI_ERR_NACK;
}

uint8_t hb_twi_write_register(uint8_t address7, uint8_t reg, uint8_t value)
{
    uint8_t err = start((uint8_t)(address7 << 1));
    if (err == HB_TWI_OK) {
        err = send(reg);
    }
    if (err == HB_TWI_OK) {
        err = send(value);
    }
    stop();
    return err;
}

/* After a START with the read address: one byte, answered NACK (the last byte). */
static uint8_t receive_last(uint8_t *value)
{
    TWCR = _BV(TWINT) | _BV(TWEN);
    if (!wait_int()) {
        return HB_TWI_ERR_TIMEOUT;
    }
    if ((TWSR & 0xF8u) != TW_MR_DATA_NACK) {
        return HB_TWI_ERR_NACK;
    }
    *value = TWDR;
    return HB_TWI_OK;
}

uint8_t hb_twi_read_register(uint8_t address7, uint8_t reg, uint8_t *value)
{
    uint8_t err = start((uint8_t)(address7 << 1));
    if (err == HB_TWI_OK) {
        err = send(reg);
    }
    if (err == HB_TWI_OK) {
        err = start((uint8_t)((address7 << 1) | 1u)); /* repeated START, read */
    }
    if (err == HB_TWI_OK) {
        err = receive_last(value);
    }
    stop();
    return err;
}

uint8_t hb_twi_read(uint8_t address7, uint8_t *value)
{
    uint8_t err = start((uint8_t)((address7 << 1) | 1u));
    if (err == HB_TWI_OK) {
        err = receive_last(value);
    }
    stop();
    return err;
}
