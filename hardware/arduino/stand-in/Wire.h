/* Stand-in for the Arduino Wire library's TwoWire (Arduino.h here says why). */
#ifndef HB_STAND_IN_WIRE_H
#define HB_STAND_IN_WIRE_H

#include "Arduino.h"

class TwoWire : public Stream
{
  public:
    void begin();
    void setClock(uint32_t frequency);
    void beginTransmission(uint8_t address);
    uint8_t endTransmission();
    uint8_t requestFrom(uint8_t address, uint8_t quantity);
    int available() override;
    int read() override;
    int peek() override;
    size_t write(uint8_t byte) override;
    using Print::write;
};

extern TwoWire Wire;

#endif
