# avr-gcc's code-size flags for every AVR build of the core (boards/atmega328p/Makefile's images,
# hardware/firmware/Makefile's size-avr and size-device3-avr), given to the compile and to the
# -flto link, which generates the code: -mrelax (the linker's shorter calls and jumps) and
# -mstrict-X (X used only as the hardware addresses it). Not -mcall-prologues: 1.3 KB smaller, but
# its slower calls lose UART bytes at 500 kbaud (CycleBudgetTests' streamed worst case underruns;
# docs/protocol-3-design.md). AVR_OPT=... on the command line tries others.
AVR_OPT ?= -mrelax -mstrict-X
