/// The tests of MVVMServer's own machinery below the API (background work and its drain, the
/// save committer, the navigation document's bytes), in one namespace: `swift test --filter
/// Internals` runs exactly them.
enum Internals {}
