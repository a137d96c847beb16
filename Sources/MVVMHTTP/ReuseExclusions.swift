/// What sends a `GET` to its handler even when an answer kept for its target still holds
/// (``Responder/answer(_:reusableWhile:)``). A body or a query string always does; beyond
/// those, the API on top of the runtime names the header fields its handlers answer
/// differently for.
package struct ReuseExclusions: Sendable {
    /// Header fields (case does not matter) whose presence alone sends a request to its handler,
    /// whatever their value: a conditional read, a stream resumed from an event.
    package var fields: [String]
    /// Media types that send a request to its handler when its `Accept` field names one of them
    /// (compared without case): a client that may ask for a stream instead of a document.
    package var acceptedMediaTypes: [String]

    /// Exclusions; none by default.
    package init(fields: [String] = [], acceptedMediaTypes: [String] = []) {
        self.fields = fields
        self.acceptedMediaTypes = acceptedMediaTypes
    }
}
