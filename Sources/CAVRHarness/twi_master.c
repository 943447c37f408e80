/* Compiled only with the package trait "Emulator" (Package.swift defines HB_EMULATOR): without it
 * this file is empty, so a build without the trait needs nothing from simavr. */
#ifdef HB_EMULATOR

/* The ATmega328P's TWI in master mode, with bus timing, in place of simavr 1.6's TWI module.
 *
 * Why replace it: for firmware that polls TWINT (as twi.c does), simavr 1.6 leaves TWINT set
 * after software clears it, reports an acknowledged SLA+W as 0x28 instead of 0x18, sets no
 * status after SLA+R, and moves a byte in about 8 cycles where the bus needs 360. This model
 * takes over the TWCR and TWDR registers and behaves as the datasheet says: writing TWINT = 1
 * starts the next bus action, which completes after its bus time (START and STOP one SCL
 * period, a byte with its acknowledge 9 periods, SCL period = 16 + 2 * TWBR * 4^TWPS cycles)
 * with the datasheet's status code in TWSR and TWINT set (interrupt if TWIE). The devices on
 * the bus are the DRV2605L model, or a TCA9548A and the DRV2605L models it connects (i2c_bus.c);
 * any other address is not acknowledged. A stuck bus
 * (a slave holding SDA low) takes no START until the firmware clocks SCL on the pins; a lost bus
 * (SDA held low for good) takes none ever; a hung bus (SCL held low for good, a clock stretched
 * forever) completes no action from then on, not even a STOP (TWSTO stays set). */
#include "harness_internal.h"

#define ADDR_TWBR 0xB8u
#define ADDR_TWSR 0xB9u
#define ADDR_TWDR 0xBBu
#define ADDR_TWCR 0xBCu
#define TWINT 0x80u
#define TWEA 0x40u
#define TWSTA 0x20u
#define TWSTO 0x10u
#define TWEN 0x04u

enum { PHASE_IDLE, PHASE_ADDRESS, PHASE_WRITE, PHASE_READ };

static uint32_t scl_period(const avr_t *avr)
{
    static const uint32_t prescale[4] = {1, 4, 16, 64};
    return 16u + 2u * avr->data[ADDR_TWBR] * prescale[avr->data[ADDR_TWSR] & 3u];
}

static void set_status(hb_avr *board, uint8_t status)
{
    uint8_t *twsr = &board->avr->data[ADDR_TWSR];
    *twsr = (uint8_t)((*twsr & 0x03u) | status);
}

static avr_cycle_count_t action_done(struct avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)when;
    hb_avr *board = param;
    hb_twi_bus *bus = &board->twi;
    switch (bus->pending) {
    case PHASE_IDLE: /* STOP finished: no interrupt, TWSTO clears */
        avr->data[ADDR_TWCR] &= (uint8_t)~TWSTO;
        set_status(board, 0xF8);
        return 0;
    case PHASE_ADDRESS: /* START or repeated START done */
        set_status(board, bus->owned ? 0x10 : 0x08);
        bus->owned = 1;
        bus->phase = PHASE_ADDRESS;
        break;
    default: set_status(board, bus->status); break;
    }
    avr_raise_interrupt(avr, &bus->port->twi);
    avr->data[ADDR_TWCR] |= TWINT;
    return 0;
}

static void schedule(hb_avr *board, int pending, uint8_t status, uint32_t periods)
{
    board->twi.pending = pending;
    board->twi.status = status;
    avr_cycle_timer_register(board->avr, periods * scl_period(board->avr), action_done, board);
}

static void write_twcr(struct avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)addr;
    hb_avr *board = param;
    hb_twi_bus *bus = &board->twi;
    uint8_t twint = avr->data[ADDR_TWCR] & TWINT;
    if (v & TWINT) {
        twint = 0; /* writing one clears the flag */
        avr_clear_interrupt(avr, &bus->port->twi);
    }
    avr->data[ADDR_TWCR] = (uint8_t)((v & (uint8_t)~TWINT) | twint);
    if (!(v & TWEN)) {
        bus->owned = 0;
        bus->phase = PHASE_IDLE;
        return;
    }
    if (!(v & TWINT)) {
        return; /* only control bits changed (e.g. TWIE) */
    }
    if (bus->scl_held) {
        return; /* SCL held low: the action never completes, TWINT (or the STOP) never comes */
    }
    if (v & TWSTA) {
        if (bus->stuck || bus->sda_lost) {
            return; /* SDA held low: no START can be sent, TWINT never comes */
        }
        schedule(board, PHASE_ADDRESS, 0, 1);
    } else if (v & TWSTO) {
        if (bus->owned) {
            hb_bus_stop(board);
        }
        bus->owned = 0;
        bus->phase = PHASE_IDLE;
        schedule(board, PHASE_IDLE, 0xF8, 1);
    } else if (bus->phase == PHASE_ADDRESS) {
        uint8_t sla = avr->data[ADDR_TWDR];
        int ack = hb_bus_start(board, sla);
        uint8_t status = (sla & 1u) ? (ack ? 0x40 : 0x48) : (ack ? 0x18 : 0x20);
        bus->phase = ack ? ((sla & 1u) ? PHASE_READ : PHASE_WRITE) : PHASE_IDLE;
        schedule(board, PHASE_WRITE, status, 9);
    } else if (bus->phase == PHASE_WRITE) {
        int ack = hb_bus_write(board, avr->data[ADDR_TWDR]);
        schedule(board, PHASE_WRITE, ack ? 0x28 : 0x30, 9);
    } else if (bus->phase == PHASE_READ) {
        avr->data[ADDR_TWDR] = hb_bus_read(board);
        schedule(board, PHASE_READ, (v & TWEA) ? 0x50 : 0x58, 9);
    }
}

static void write_twdr(struct avr_t *avr, avr_io_addr_t addr, uint8_t v, void *param)
{
    (void)param;
    avr->data[addr] = v;
}

/* SDA (PC4) as the firmware reads it in PINC: low while a slave holds it, else pulled up unless the
 * port drives it low. Reads of PINC go through simavr's port module, then this. */
#define ADDR_PINC 0x26u
static uint8_t read_pinc(struct avr_t *avr, avr_io_addr_t addr, void *param)
{
    hb_avr *board = param;
    uint8_t v =
        board->twi.pinc_read ? board->twi.pinc_read(avr, addr, board->twi.pinc_param) : avr->data[addr];
    uint8_t driven_low = (avr->data[HB_ADDR_DDRC] & 0x10u) && !(avr->data[HB_ADDR_PORTC] & 0x10u);
    v = (board->twi.stuck || board->twi.sda_lost || driven_low) ? (uint8_t)(v & ~0x10u)
                                                                : (uint8_t)(v | 0x10u);
    uint8_t scl_low =
        board->twi.scl_held || ((avr->data[HB_ADDR_DDRC] & 0x20u) && !(avr->data[HB_ADDR_PORTC] & 0x20u));
    v = scl_low ? (uint8_t)(v & ~0x20u) : (uint8_t)(v | 0x20u);
    avr->data[addr] = v;
    return v;
}

void hb_twi_master_reset(hb_avr *board)
{
    board->twi.owned = 0;
    board->twi.phase = PHASE_IDLE;
    board->twi.pending = PHASE_IDLE;
    set_status(board, 0xF8);
}

void hb_twi_bus_held(hb_avr *board, int sda, int scl)
{
    board->twi.sda_lost = sda;
    board->twi.scl_held = scl;
}

void hb_twi_bus_stuck(hb_avr *board, int on)
{
    board->twi.stuck = on;
    board->twi.scl_pulses = 0;
}

/* SCL (PC5) driven by the port while the TWI is off: low when an output at 0, else pulled up.
 * A slave cut off mid-byte releases SDA once it has clocked out what it owed: here, 5 pulses. */
void hb_twi_pins_written(hb_avr *board)
{
    const uint8_t *d = board->avr->data;
    int high = !((d[HB_ADDR_DDRC] & 0x20u) && !(d[HB_ADDR_PORTC] & 0x20u)) && !board->twi.scl_held;
    if (board->twi.stuck && high && !board->twi.scl_high && ++board->twi.scl_pulses >= 5) {
        hb_twi_bus_stuck(board, 0);
    }
    board->twi.scl_high = high;
}

void hb_twi_master_attach(hb_avr *board)
{
    for (avr_io_t *io = board->avr->io_port; io; io = io->next) {
        if (strcmp(io->kind, "twi") == 0) {
            board->twi.port = (avr_twi_t *)io;
        }
    }
    if (!board->twi.port) {
        return;
    }
    avr_t *avr = board->avr;
    /* Take the registers over from simavr's module (direct slot writes: registering through
     * avr_register_io_write would chain both handlers). */
    avr->io[AVR_DATA_TO_IO(ADDR_TWCR)].w.c = write_twcr;
    avr->io[AVR_DATA_TO_IO(ADDR_TWCR)].w.param = board;
    avr->io[AVR_DATA_TO_IO(ADDR_TWDR)].w.c = write_twdr;
    avr->io[AVR_DATA_TO_IO(ADDR_TWDR)].w.param = board;
    avr->io[AVR_DATA_TO_IO(ADDR_TWDR)].r.c = NULL;
    board->twi.pinc_read = avr->io[AVR_DATA_TO_IO(ADDR_PINC)].r.c;
    board->twi.pinc_param = avr->io[AVR_DATA_TO_IO(ADDR_PINC)].r.param;
    avr->io[AVR_DATA_TO_IO(ADDR_PINC)].r.c = read_pinc;
    avr->io[AVR_DATA_TO_IO(ADDR_PINC)].r.param = board;
    set_status(board, 0xF8);
    board->twi.scl_high = 1;
}

#endif /* HB_EMULATOR */
