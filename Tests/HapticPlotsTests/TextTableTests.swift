import HapticPlots
import Testing

/// The terminal table of `haptic bench`: the first column left-aligned, the others right-aligned,
/// a short row (a failed file) as it is.
@Suite struct TextTableTests {
    @Test func columnsAlignAndShortRowsStayAsTheyAre() {
        let lines = TextTable.lines([["file", "ticks", "bytes"], ["a.ahap", "7", "1234"], ["b.ahap", "failed: bad"], ["total", "17", "9"]])
        #expect(lines == ["file    ticks  bytes", "a.ahap      7   1234", "b.ahap  failed: bad", "total      17      9"])
    }
}
