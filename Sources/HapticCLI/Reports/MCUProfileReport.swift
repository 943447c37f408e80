#if Emulator
    import AVREmulator

    extension ProfiledMCU {
        /// What `haptic profile --mcu` reports (`BoardProfileReport`, computed beside the budget).
        typealias Report = BoardProfileReport
    }
#endif
