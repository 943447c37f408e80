import HapticPattern

extension HapticPattern {
    /// The pattern with every time and duration multiplied by `factor` (events, parameters,
    /// curves and their control points; envelope times are fractions of the event and stay).
    /// `HapticDeviceGroup` plays a board whose ticks run `ppm` fast stretched by 1 + ppm / 10^6,
    /// so that in host time it lasts as long as on the others (docs/clocks.md, "Staying together").
    public func stretched(by factor: Double) -> HapticPattern {
        var copy = self
        for index in copy.events.indices {
            copy.events[index].time *= factor
            copy.events[index].duration *= factor
        }
        for index in copy.parameters.indices { copy.parameters[index].time *= factor }
        for index in copy.curves.indices {
            copy.curves[index].time *= factor
            for point in copy.curves[index].controlPoints.indices { copy.curves[index].controlPoints[point].time *= factor }
        }
        return copy
    }
}
