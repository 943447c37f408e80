import CAVRHarness

/// The stack measured, not estimated (Sources/CAVRHarness/stack_paint.c): every board's free RAM is
/// painted before its firmware runs (`AVRBoard.init`), and the lowest byte that lost the pattern is
/// the deepest the stack has reached, every push, call and interrupt frame of the run included.
extension AVRBoard {
    /// Paints the RAM between the end of the static data and the top; returns the bytes painted
    /// (nil: the ELF has no `__heap_start` or `__bss_end`).
    @discardableResult
    public func paintStack() -> Int? {
        let painted = hb_avr_stack_paint(handle)
        return painted < 0 ? nil : Int(painted)
    }

    /// The least free RAM the stack has left since the paint: bytes between the end of the static
    /// data and the deepest byte the stack (or a heap) wrote.
    public var stackFreeMinimum: Int? {
        let free = hb_avr_stack_free_min(handle)
        return free < 0 ? nil : Int(free)
    }
}
