// A test target of an app needs this product alone: the framework the app is built on
// (DependencyValues, ApplicationConfiguration, the scenes' types), the client that drives it,
// and swift-clocks' clocks, for time a test controls: `TestClock` (advanced by hand) and
// `ImmediateClock` (no waiting), set as a scene's clock through its `DependencyValues`.
@_exported import Clocks
@_exported import MVVMClient
@_exported import MVVMServer
