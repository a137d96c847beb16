/// The tests of the MVVM core and their fixtures, in one namespace: their identifiers read
/// `MVVMCoreTests.Core.…`, and the fixtures' names cannot clash with other suites' fixtures.
/// This target depends on MVVMCore and the modules below it alone: it builds and runs without
/// the HTTP runtime or libmicrohttpd.
enum Core {}
