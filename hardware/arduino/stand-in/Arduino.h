/* A minimal stand-in for the Arduino API, only what the HapticBridge library and its examples use,
 * with the signatures of the Arduino core (ArduinoCore-API). tools/arduino-portability compiles
 * the library against it for a 32-bit ARM Cortex-M0+ (arm-none-eabi-gcc), where no AVR header
 * exists, so that nothing AVR-specific can leak out of the library's port layer (src/hb_port.h).
 * Nothing here runs: the stand-in's functions do nothing (stand_in.cpp). */
#ifndef HB_STAND_IN_ARDUINO_H
#define HB_STAND_IN_ARDUINO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HIGH 0x1
#define LOW 0x0
#define INPUT 0x0
#define OUTPUT 0x1
#define INPUT_PULLUP 0x2
#define LED_BUILTIN 13

unsigned long micros(void);
unsigned long millis(void);
void delay(unsigned long ms);
void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t value);
int digitalRead(uint8_t pin);
void analogWrite(uint8_t pin, int value);

class Print
{
  public:
    virtual size_t write(uint8_t byte) = 0;
    virtual size_t write(const uint8_t *buffer, size_t size);

  protected:
    ~Print() = default;
};

class Stream : public Print
{
  public:
    virtual int available() = 0;
    virtual int read() = 0;
    virtual int peek() = 0;
    using Print::write;

  protected:
    ~Stream() = default;
};

class HardwareSerial : public Stream
{
  public:
    void begin(unsigned long baud);
    int available() override;
    int read() override;
    int peek() override;
    size_t write(uint8_t byte) override;
    using Print::write;
};

extern HardwareSerial Serial;

#endif
