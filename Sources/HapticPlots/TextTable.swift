/// A table for a terminal, as `haptic bench` prints its files: columns two spaces apart, the first
/// left-aligned and the others right-aligned to their widest cell. A row of two cells or fewer (a
/// file that failed, with its reason) is printed as it is and does not widen the columns.
public enum TextTable {
    public static func lines(_ rows: [[String]]) -> [String] {
        var widths: [Int] = []
        for row in rows where row.count > 2 {
            for (index, cell) in row.enumerated() {
                if index >= widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell -> String in
                guard row.count > 2 else { return cell }
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}
