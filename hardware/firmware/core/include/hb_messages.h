/* Wire-protocol messages (firmware-protocol/PROTOCOL.md, 2.2-2.15): type codes, payload sizes,
 * field values and the protocol's error codes. Plain literals, so that Swift imports them.
 * The numbers are on the wire: never renumber. */
#ifndef HB_MESSAGES_H
#define HB_MESSAGES_H

#define HB_PROTOCOL_MAJOR 2u
#define HB_PROTOCOL_MINOR 0u

/* Host to device (0x01..0x7F). */
#define HB_MSG_HELLO 0x01u       /* command: major u8, minor u8 -> INFO */
#define HB_MSG_PING 0x02u        /* echo u32 -> PONG */
#define HB_MSG_UPLOAD 0x03u      /* command: slot u8, offset u32, data */
#define HB_MSG_COMMIT 0x04u      /* command: slot u8, length u32, crc u16 */
#define HB_MSG_PLAY 0x05u        /* command: slot u8, flags u8, at u32, scale u8, offset i8, loops u16 */
#define HB_MSG_STOP 0x06u        /* command: flags u8 */
#define HB_MSG_PREPARE 0x07u     /* command: no payload */
#define HB_MSG_SET_PARAM 0x08u   /* scale u8, offset i8 (unacknowledged) */
#define HB_MSG_STREAM_OPEN 0x09u /* command: program header u8[16] */
#define HB_MSG_STREAM_DATA 0x0Au /* offset u32, data (unacknowledged) */
#define HB_MSG_SET_CONFIG 0x0Bu  /* command: key u8, value u32 */
#define HB_MSG_DIAG 0x0Cu        /* no payload -> DIAG_REPORT (unacknowledged) */
#define HB_MSG_QUERY 0x0Du       /* index u8 (optional) -> STATUS (unacknowledged; 2.19) */

/* Device to host (0x80..0xFF). */
#define HB_MSG_ACK 0x80u         /* type u8, value u32 */
#define HB_MSG_NACK 0x81u        /* type u8, code u8, value u32 */
#define HB_MSG_INFO 0x82u        /* 44 bytes + profile name */
#define HB_MSG_PONG 0x83u        /* echo u32, tick u32, subtick u16 */
#define HB_MSG_TELEMETRY 0x84u   /* event u8, slot u8, code u8, tick u32 */
#define HB_MSG_CREDIT 0x85u      /* next u32, limit u32 */
#define HB_MSG_RESET 0x86u       /* major u8, minor u8, reason u8, boot_count u32 */
#define HB_MSG_DIAG_REPORT 0x87u /* the output stage: 18 bytes (2.18) */
#define HB_MSG_STATUS 0x88u      /* now, the pending play, one play record: 21 bytes (2.19) */
#define HB_MSG_INFO_PART 0x89u   /* part u8, parts u8, data u8[0..8]: a piece of INFO (2.19) */

/* Fixed payload parts (2.2.2). */
#define HB_LEN_HELLO 2u
#define HB_LEN_PING 4u
#define HB_LEN_UPLOAD 6u /* at least one data byte */
#define HB_LEN_UPLOAD_FIELDS 5u
#define HB_LEN_COMMIT 7u
#define HB_LEN_PLAY 10u
#define HB_LEN_STOP 1u
#define HB_LEN_SET_PARAM 2u
#define HB_LEN_STREAM_OPEN 16u
#define HB_LEN_STREAM_DATA 4u
#define HB_LEN_SET_CONFIG 5u
#define HB_LEN_ACK 5u
#define HB_LEN_NACK 6u
#define HB_LEN_INFO 44u
#define HB_LEN_PONG 10u
#define HB_LEN_TELEMETRY 7u
#define HB_LEN_CREDIT 8u
#define HB_LEN_RESET 7u
#define HB_LEN_DIAG 0u
#define HB_LEN_DIAG_REPORT 18u
#define HB_LEN_HELLO_PART 3u /* HELLO with a `part` byte asks for INFO_PART (2.19) */
#define HB_LEN_STATUS 21u
#define HB_INFO_PART_SIZE 8u /* INFO bytes per INFO_PART */
#define HB_PLAY_FIRST_NONE 0xFFFFu
#define HB_PROFILE_NAME_MAX 16u

/* Field values. */
#define HB_STREAM_SLOT 0xFFu     /* PLAY / TELEMETRY slot number of the stream */
#define HB_PLAY_AT 0x01u         /* PLAY flags bit 0: start at `at` */
#define HB_STOP_BRAKE 0x01u      /* STOP flags bit 0 */
#define HB_CONFIG_WATCHDOG 1u    /* SET_CONFIG key */
#define HB_CONFIG_RECALIBRATE 2u /* SET_CONFIG key: the board's (hb_device_set_config_hook) */
#define HB_NO_SLOT 0xFEu         /* TELEMETRY slot of a fault when nothing plays */

#define HB_CAP_STREAM 0x0001u
#define HB_CAP_SHARPNESS 0x0002u
#define HB_CAP_ACTIVE_BRAKE 0x0004u
#define HB_CAP_SUBTICK 0x0008u
#define HB_CAP_DIAG 0x0010u         /* the board reports its output stage (DIAG, 2.18) */
#define HB_CAP_STATUS 0x0020u       /* QUERY / STATUS, INFO in parts (2.19); set by the core */
#define HB_CAP_SOFT_RESTART 0x0040u /* the board restarts in software, never by a watchdog reset (2.13) */

/* DIAG_REPORT stage kinds and flags (2.18). */
#define HB_DIAG_STAGE_NONE 0u
#define HB_DIAG_STAGE_PWM 1u
#define HB_DIAG_STAGE_DRV2605L 2u
#define HB_DIAG_PRESENT 0x01u    /* the driver answers on its bus */
#define HB_DIAG_CALIBRATED 0x02u /* calibration results are in use */
#define HB_DIAG_STORED 0x04u     /* ... read back from the board's memory, not measured at this boot */
#define HB_DIAG_STANDBY 0x08u    /* the driver was put in standby after a failed stop */
#define HB_DIAG_DISABLED 0x10u   /* the driver is shut down by its enable pin (after a stage fault) */

#define HB_ACTUATOR_UNKNOWN 0u
#define HB_ACTUATOR_LRA 1u
#define HB_ACTUATOR_ERM 2u
#define HB_ACTUATOR_VOICE_COIL 3u

#define HB_RESET_UNKNOWN 0u
#define HB_RESET_POWER_ON 1u
#define HB_RESET_PIN 2u
#define HB_RESET_BROWN_OUT 3u
#define HB_RESET_WATCHDOG 4u
#define HB_RESET_SOFTWARE 5u

#define HB_EVENT_STARTED 1u
#define HB_EVENT_FIRST_OUTPUT 2u
#define HB_EVENT_FINISHED 3u
#define HB_EVENT_STOPPED 4u
#define HB_EVENT_FAULT 5u
#define HB_PLAY_PLAYING 1u /* a play record's state while it plays (2.19); ended: its end event */
#define HB_STOPPED_BY_HOST 0u
#define HB_STOPPED_BY_PLAY 1u

/* Error codes of part 2 (2.15); 1..30 and 48..49 are in hb_error.h. */
#define HB_ERR_WATCHDOG 50u
/* Output-stage faults (2.18), reported by the board (hb_device_set_stage_fault). */
#define HB_ERR_DRIVER_RESET 58u       /* the driver came back at its reset defaults (it lost power) */
#define HB_ERR_DRIVER_ABSENT 59u      /* the driver does not answer at its address */
#define HB_ERR_DRIVER_BUS 60u         /* transfers to the driver fail (NACK, time-out, stuck bus) */
#define HB_ERR_CALIBRATION_FAILED 61u /* the driver's auto-calibration failed */
#define HB_ERR_OVER_TEMPERATURE 62u   /* the driver shut down: over-temperature */
#define HB_ERR_OVER_CURRENT 63u       /* the driver shut down: over-current */
#define HB_ERR_UNKNOWN_MESSAGE 64u
#define HB_ERR_BAD_LENGTH 65u
#define HB_ERR_BAD_SLOT 66u
#define HB_ERR_BAD_OFFSET 67u
#define HB_ERR_NO_SPACE 68u
#define HB_ERR_SLOT_BUSY 69u
#define HB_ERR_NOT_COMMITTED 70u
#define HB_ERR_COMMIT_LENGTH 71u
#define HB_ERR_CHECKSUM_MISMATCH 72u
#define HB_ERR_VERSION_INCOMPATIBLE 73u
#define HB_ERR_BAD_PARAM 74u
#define HB_ERR_NO_STREAM 75u
#define HB_ERR_UNSUPPORTED 76u

#endif
