/* Protocol 3.0's messages (firmware-protocol/PROTOCOL-3.md 3.11, 3.13) where they differ from
 * 2.0's (hb_messages.h, whose types, codes and unchanged messages hold). Plain literals. */
#ifndef HB_MESSAGES3_H
#define HB_MESSAGES3_H

#define HB_PROTOCOL3_MAJOR 3u
#define HB_PROTOCOL3_MINOR 0u

#define HB_MSG_CONTROL 0x0Eu      /* command: play, channels, op, flags, at, value */
#define HB_MSG_DESCRIBE 0x0Fu     /* channel u8 -> CHANNEL_INFO (unacknowledged) */
#define HB_MSG_CHANNEL_INFO 0x8Au /* 20 bytes + profile name */

#define HB_LEN3_PLAY 25u
#define HB_LEN3_STOP 8u
#define HB_LEN3_CONTROL 13u
#define HB_LEN3_SET_PARAM 5u
#define HB_LEN3_QUERY 2u
#define HB_LEN3_STATUS 29u
#define HB_LEN3_TELEMETRY 9u
#define HB_LEN3_INFO 52u
#define HB_LEN3_CHANNEL_INFO 20u
#define HB_LEN3_DIAG_REPORT 19u

#define HB_ALL_PLAYS 0xFFu /* STOP, CONTROL, SET_PARAM: every play */
#define HB_NO_PLAY 0xFEu   /* TELEMETRY: no play (a stage fault on an idle channel) */

/* PLAY flags */
#define HB_PLAY3_AT 0x01u
#define HB_PLAY3_SUM 0x02u
#define HB_PLAY3_CUT 0x04u
#define HB_PLAY3_MUTED 0x08u
/* STOP flags */
#define HB_STOP3_BRAKE 0x01u
#define HB_STOP3_AT 0x02u

/* CONTROL ops; the scheduled STOPs are internal (a STOP with AT, 3.7) */
#define HB_OP3_PAUSE 1u
#define HB_OP3_RESUME 2u
#define HB_OP3_SEEK 3u
#define HB_OP3_RATE 4u
#define HB_OP3_LOOPS 5u
#define HB_OP3_LOOP_END 6u
#define HB_OP3_MUTE 7u
#define HB_OP3_PRIORITY 8u
#define HB_OP3_STOP 9u
#define HB_OP3_STOP_BRAKE 10u

/* SET_CONFIG keys */
#define HB_CONFIG_FADE_TICKS 3u
#define HB_CONFIG_TRIM 4u
#define HB_CONFIG_SYNC 5u
#define HB_CONFIG_SYNC_PHASE 6u

/* STATUS state and flags */
#define HB_PLAY3_PENDING 2u
#define HB_STATUS3_PAUSED 0x01u
#define HB_STATUS3_MUTED 0x02u
#define HB_STATUS3_PENDING 0x04u

#define HB_CAP_TRIM 0x0080u
#define HB_CAP_SYNC_WIRE 0x0100u
#define HB_CAP_SEEK 0x0200u /* PLAY's `from`, CONTROL SEEK, rule (f) at COMMIT (3.13) */

#define HB_STOPPED_BY_CUT 2u

/* Error codes (3.13); 31 LOOP_NOT_CLOSED is hb_error.h's */
#define HB_ERR_BAD_CHANNEL 77u
#define HB_ERR_NO_PLAYER 78u
#define HB_ERR_WORK_LIMIT 79u
#define HB_ERR_NO_SUCH_PLAY 80u
#define HB_ERR_SEEK_RANGE 81u
#define HB_ERR_SCHEDULE_FULL 82u

#endif
