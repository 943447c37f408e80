# avr-gcc's code-size flags for every AVR build of the core (boards/atmega328p/Makefile's images,
# hardware/firmware/Makefile's size-avr and size-device3-avr), given to the compile and to the
# -flto link, which generates the code. AVR_OPT is set by whoever includes this file to try others.
AVR_OPT ?= -mcall-prologues -mrelax -mstrict-X
