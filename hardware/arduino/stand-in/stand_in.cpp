/* The stand-in's definitions (Arduino.h says why): enough to link an example, nothing that runs. */
#include "Arduino.h"
#include "Wire.h"

/* The clock: a test sets it (tick_test.cpp); 0 otherwise. */
unsigned long hb_stand_in_micros;

unsigned long micros(void)
{
    return hb_stand_in_micros;
}
unsigned long millis(void)
{
    return hb_stand_in_micros / 1000u;
}
void delay(unsigned long)
{
}
void pinMode(uint8_t, uint8_t)
{
}
void digitalWrite(uint8_t, uint8_t)
{
}
int digitalRead(uint8_t)
{
    return HIGH;
}
void analogWrite(uint8_t, int)
{
}

size_t Print::write(const uint8_t *buffer, size_t size)
{
    size_t n = 0;
    while (n < size && write(buffer[n])) n++;
    return n;
}

void HardwareSerial::begin(unsigned long)
{
}
int HardwareSerial::available()
{
    return 0;
}
int HardwareSerial::read()
{
    return -1;
}
int HardwareSerial::peek()
{
    return -1;
}
size_t HardwareSerial::write(uint8_t)
{
    return 1;
}
HardwareSerial Serial;

void TwoWire::begin()
{
}
void TwoWire::setClock(uint32_t)
{
}
void TwoWire::beginTransmission(uint8_t)
{
}
uint8_t TwoWire::endTransmission()
{
    return 0;
}
uint8_t TwoWire::requestFrom(uint8_t, uint8_t quantity)
{
    return quantity;
}
int TwoWire::available()
{
    return 0;
}
int TwoWire::read()
{
    return 0;
}
int TwoWire::peek()
{
    return 0;
}
size_t TwoWire::write(uint8_t)
{
    return 1;
}
TwoWire Wire;

/* What an Arduino core's main() does. */
void setup();
void loop();
extern "C" void __cxa_pure_virtual()
{
    for (;;) {
    }
}
int main()
{
    setup();
    for (;;) {
        loop();
    }
}
