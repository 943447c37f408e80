/* Semihosting calls (semihost.h): operation in r0, argument block in r1, result in r0. */
#include "semihost.h"

#define SYS_OPEN 0x01u
#define SYS_WRITE 0x05u
#define SYS_READ 0x06u
#define SYS_GET_CMDLINE 0x15u
#define OPEN_MODE_READ 0u  /* "r" */
#define OPEN_MODE_WRITE 4u /* "w" */
#define NO_HANDLE 0xFFFFFFFFu

static uint32_t console_in = NO_HANDLE, console_out = NO_HANDLE;

static uint32_t call(uint32_t operation, const void *argument)
{
    register uint32_t r0 __asm__("r0") = operation;
    register const void *r1 __asm__("r1") = argument;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static uint32_t open_console(uint32_t mode)
{
    static const char name[] = ":tt";
    const uint32_t block[3] = {(uint32_t)(uintptr_t)name, mode, sizeof name - 1u};
    return call(SYS_OPEN, block);
}

uint8_t hb_semihost_open_console(void)
{
    console_in = open_console(OPEN_MODE_READ);
    console_out = open_console(OPEN_MODE_WRITE);
    return (uint8_t)(console_in != NO_HANDLE && console_out != NO_HANDLE);
}

void hb_semihost_write(const uint8_t *bytes, uint32_t length)
{
    const uint32_t block[3] = {console_out, (uint32_t)(uintptr_t)bytes, length};
    (void)call(SYS_WRITE, block);
}

uint8_t hb_semihost_read(uint8_t *bytes, uint32_t length)
{
    const uint32_t block[3] = {console_in, (uint32_t)(uintptr_t)bytes, length};
    return (uint8_t)(call(SYS_READ, block) == 0u); /* SYS_READ returns the bytes it did not read */
}

uint8_t hb_semihost_has_argument(const char *word)
{
    static char line[64];
    uint32_t block[2] = {(uint32_t)(uintptr_t)line, sizeof line};
    if (call(SYS_GET_CMDLINE, block) != 0u) return 0;
    const char *p = line;
    while (*p != '\0') {
        while (*p == ' ') p++;
        const char *w = word;
        while (*w != '\0' && *p == *w) {
            p++;
            w++;
        }
        if (*w == '\0' && (*p == ' ' || *p == '\0')) return 1;
        while (*p != ' ' && *p != '\0') p++;
    }
    return 0;
}
