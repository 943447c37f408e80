/// An optional value written as `null` when absent, so its key is always present (the
/// synthesized `Encodable` would leave the key out): the one way every JSON report of the
/// package encodes an optional field (docs/cli.md, "JSON output").
@propertyWrapper
public struct Nullable<Value: Encodable>: Encodable {
    public var wrappedValue: Value?

    // Written out: memberwise initializers of the reports take `Value?` through it.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Sendable where Value: Sendable {}
