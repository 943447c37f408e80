/// The board's output stage (PROTOCOL.md 2.18): DIAG asks, DIAG_REPORT answers.
extension Message {
    /// DIAG (0x0C, unacknowledged, no payload): answered by DIAG_REPORT with the same sequence
    /// number. Sent only to a device whose INFO has the DIAG capability.
    public struct Diag: Hashable, Sendable, MessagePayload {
        public init() {}

        static let zero = Self()

        mutating func fields(_ f: inout PayloadFields) {}
    }

    /// DIAG_REPORT (0x87, reply to DIAG): what the output stage is and how it is.
    public struct DiagReport: Hashable, Sendable, MessagePayload {
        public static let fixedCount = 18

        public enum Stage: UInt8, Hashable, Sendable {
            case none = 0
            case pwm = 1
            case drv2605l = 2
        }

        public struct Flags: OptionSet, Hashable, Sendable {
            public var rawValue: UInt8
            public init(rawValue: UInt8) { self.rawValue = rawValue }
            /// The driver answers on its bus.
            public static let present = Flags(rawValue: 1 << 0)
            /// Calibration results are in use.
            public static let calibrated = Flags(rawValue: 1 << 1)
            /// ... read back from the board's memory, not measured at this boot.
            public static let stored = Flags(rawValue: 1 << 2)
            /// The driver was put in standby after a stop could not be delivered.
            public static let standby = Flags(rawValue: 1 << 3)
            /// The driver is shut down by its enable pin (the board dropped EN after a stage fault).
            public static let disabled = Flags(rawValue: 1 << 4)
        }

        /// Raw stage code (see `Stage`), kept raw so that later codes survive.
        public var stageCode: UInt8
        /// The stage's fault now, 0 when none (58...63: `MessageErrorCode.isStageFault`).
        public var fault: MessageErrorCode
        public var flags: Flags
        /// The driver's last status register (DRV2605L: STATUS, 0x00).
        public var driverStatus: UInt8
        /// The H-bridge supply the build assumes (PWM), 0 when the stage has none.
        public var supplyMillivolts: UInt16
        /// Drive at amplitude code 255, and the most the stage ever drives (kick, brake).
        public var ratedMillivolts: UInt16
        public var limitMillivolts: UInt16
        /// DRV2605L auto-calibration results (A_CAL_COMP, A_CAL_BEMF, FEEDBACK_CONTROL).
        public var calibrationCompensation: UInt8
        public var calibrationBackEMF: UInt8
        public var feedbackControl: UInt8
        /// The LRA period the driver measured (LRA_PERIOD, 98.46 us per step), 0 when none.
        public var lraPeriod: UInt8
        /// Failed driver transfers since boot, and transfers that succeeded on a retry.
        public var busErrors: UInt16
        public var retries: UInt16

        public var stage: Stage? { Stage(rawValue: stageCode) }
        /// The resonance the driver measured, from LRA_PERIOD.
        public var measuredResonanceHz: Double? { lraPeriod == 0 ? nil : 1e6 / (Double(lraPeriod) * 98.46) }

        public init(
            stageCode: UInt8, fault: MessageErrorCode = MessageErrorCode(0), flags: Flags = [], driverStatus: UInt8 = 0,
            supplyMillivolts: UInt16 = 0, ratedMillivolts: UInt16 = 0, limitMillivolts: UInt16 = 0,
            calibrationCompensation: UInt8 = 0, calibrationBackEMF: UInt8 = 0, feedbackControl: UInt8 = 0,
            lraPeriod: UInt8 = 0, busErrors: UInt16 = 0, retries: UInt16 = 0
        ) {
            self.stageCode = stageCode
            self.fault = fault
            self.flags = flags
            self.driverStatus = driverStatus
            self.supplyMillivolts = supplyMillivolts
            self.ratedMillivolts = ratedMillivolts
            self.limitMillivolts = limitMillivolts
            self.calibrationCompensation = calibrationCompensation
            self.calibrationBackEMF = calibrationBackEMF
            self.feedbackControl = feedbackControl
            self.lraPeriod = lraPeriod
            self.busErrors = busErrors
            self.retries = retries
        }

        static let zero = Self(stageCode: 0)

        mutating func fields(_ f: inout PayloadFields) {
            var faultCode = fault.rawValue, flagBits = flags.rawValue
            f.u8(&stageCode)
            f.u8(&faultCode)
            f.u8(&flagBits)
            f.u8(&driverStatus)
            f.u16(&supplyMillivolts)
            f.u16(&ratedMillivolts)
            f.u16(&limitMillivolts)
            f.u8(&calibrationCompensation)
            f.u8(&calibrationBackEMF)
            f.u8(&feedbackControl)
            f.u8(&lraPeriod)
            f.u16(&busErrors)
            f.u16(&retries)
            fault = MessageErrorCode(faultCode)
            flags = Flags(rawValue: flagBits)
        }
    }
}

extension Message.Telemetry {
    /// The slot of a FAULT raised by the output stage while nothing plays (2.18).
    public static let noSlot: UInt8 = 0xFE
}
