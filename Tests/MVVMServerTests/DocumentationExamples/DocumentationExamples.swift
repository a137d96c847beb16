/// The code that the DocC catalogue's articles show (`Sources/MVVMServer/MVVMServer.docc`),
/// compiled with the tests: a small library app (a shelf of books, a book's details, the
/// session's loans) and the settings of its entry point. `DocumentationExamples.ExampleTests`
/// runs it over HTTP; `DocumentationCodeTests` checks that every Swift block of the catalogue
/// is found, line for line, in a Swift file of the repository.
///
/// A namespace, so that the examples' names clash with no other test's.
enum DocumentationExamples {}
