extension ProtocolVersion {
    /// The program format a device of this version takes (PROTOCOL-3.md 3.14): 3 for major 3, 2
    /// before. A device of the other major refuses the program at COMMIT with error 3.
    public var programFormat: UInt8 { major >= 3 ? ProgramHeader.formatVersion3 : ProgramHeader.formatVersion }
}
