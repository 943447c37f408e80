"""The wire primitives the vector generators share, written from PROTOCOL.md (not from the C
or Swift code they test): CRC-16/CCITT-FALSE (the program header 1.3, frames 2.1.1) and COBS
(2.1.2).

Imported by programs/reference.py (program CRC), frames/generate.py (frame layer) and
device/device.py (frames of the device reference).
"""


def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor; bit by bit."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def cobs(data):
    """Cheshire-Baker COBS, shortest form (no empty block after a final full block)."""
    out, block = bytearray(), bytearray()
    for i, b in enumerate(data):
        if b == 0:
            out += bytes([len(block) + 1]) + block
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out += b"\xff" + block
                block = bytearray()
                if i == len(data) - 1:
                    return bytes(out)
    return bytes(out + bytes([len(block) + 1]) + block)


assert crc16(b"123456789") == 0x29B1
