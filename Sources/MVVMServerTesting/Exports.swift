// swift-clocks' clocks, for time a test controls: `TestClock` (advanced by hand) and
// `ImmediateClock` (no waiting), set as a scene's clock through its `DependencyValues`.
@_exported import Clocks
