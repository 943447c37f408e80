/// Warnings and errors of the AHAP reader, with the file position and JSON path of the value.
extension AHAPReader {
    mutating func warn(_ kind: AHAPWarning.Kind, _ path: AHAPPath, _ message: String) {
        warnings.append(AHAPWarning(kind: kind, path: path.render(tree), message: message))
    }

    /// Strict mode: throw `strictMessage`. Lenient mode: record the repair as a warning and go on.
    mutating func reject(
        _ node: Int, _ path: AHAPPath, _ strictMessage: String,
        or kind: AHAPWarning.Kind, _ lenientMessage: String
    ) throws(AHAPError) {
        guard lenient else { throw error(node, path, strictMessage) }
        warn(kind, path, lenientMessage)
    }

    func error(_ node: Int, _ path: AHAPPath, _ message: String) -> AHAPError {
        let position = tree.lineColumn(atOffset: tree.offset(node))
        return AHAPError(file: file, path: path.render(tree), line: position.line, column: position.column, message: message)
    }

    /// Warnings for trailing commas (lenient mode only: strict mode fails in the parser).
    /// Descends only into subtrees that hold a flagged container, so the cost stays small even for
    /// a 50 MB file with one trailing comma.
    func trailingCommaWarnings() -> [AHAPWarning] {
        var flagged: [Int] = []
        for (index, node) in tree.nodes.enumerated()
        where node.flags & JSONTree.trailingComma != 0 && (node.kind == .array || node.kind == .object) {
            flagged.append(index)
        }
        guard !flagged.isEmpty else { return [] }
        var result: [AHAPWarning] = []
        walk(tree.root, path: "", flagged: flagged, into: &result)
        return result
    }

    /// Recursive, bounded by the parser's depth limit.
    private func walk(_ node: Int, path: String, flagged: [Int], into result: inout [AHAPWarning]) {
        // Skip subtrees without a flagged container (binary search for the first index >= node).
        var low = 0
        var high = flagged.count
        while low < high {
            let middle = (low + high) / 2
            if flagged[middle] < node { low = middle + 1 } else { high = middle }
        }
        guard low < flagged.count, flagged[low] < tree.next(after: node) else { return }
        if tree.hasTrailingComma(node) {
            result.append(AHAPWarning(kind: .trailingComma, path: path.isEmpty ? "(root)" : path, message: "trailing comma ignored"))
        }
        switch tree.kind(node) {
        case .array:
            for (index, element) in tree.elements(node).enumerated() {
                walk(element, path: "\(path)[\(index)]", flagged: flagged, into: &result)
            }
        case .object:
            for member in tree.members(node) {
                let component = AHAPText.component(tree.string(member.key))
                let childPath = path.isEmpty && component.hasPrefix(".") ? String(component.dropFirst()) : path + component
                walk(member.value, path: childPath, flagged: flagged, into: &result)
            }
        default:
            break
        }
    }
}
