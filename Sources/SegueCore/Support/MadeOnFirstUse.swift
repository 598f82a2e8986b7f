extension Optional {
    /// The value held, or one `make` makes and this then holds: for what is
    /// made from the first thing it takes (a filter graph from the first
    /// frame's size, format or layout) and kept after.
    package mutating func madeOnFirstUse(_ make: () throws -> Wrapped) rethrows -> Wrapped {
        if let self { return self }
        let made = try make()
        self = made
        return made
    }
}
