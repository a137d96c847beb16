/// The tests of the MVVM core (issue 3) and their fixtures, in one namespace: their
/// identifiers read `MVVMServerTests.Core.…`, so `swift test --filter Core` runs exactly them,
/// and the fixtures' names cannot clash with other suites' fixtures.
enum Core {}
