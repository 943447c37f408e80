/// A JSON syntax error with its position: 1-based line and column, and the byte offset.
struct JSONSyntaxError: Error, Sendable, Equatable {
    var offset: Int
    var line: Int
    var column: Int
    var message: String
}
