import Testing

/// Every program vector on the Swift model and the C core side by side: besides the expected
/// samples (VectorTests and the C runner), the two must agree on everything observable at
/// every tick, including status and instructions executed.
@Test func vectorsBehaveTheSameInSwiftAndC() {
    #expect(VectorFiles.cached.count >= 146)
    for vector in VectorFiles.cached {
        expectSameBehaviour(vector.scenario, label: "vector \(vector.name)", seed: nil)
    }
}
