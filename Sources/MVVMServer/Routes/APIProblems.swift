import MVVMCore
import MVVMHTTP

/// The kinds of problem the HTTP API answers, each with a stable `type`.
extension HTTPError.Kind {
    /// 404: no session has this id.
    package static let sessionNotFound = Self(slug: "session-not-found", status: 404, title: "Session not found")
    /// 410: the session was deleted or expired.
    package static let sessionGone = Self(slug: "session-gone", status: 410, title: "Session gone")
    /// 404: no scene has this key.
    package static let sceneNotFound = Self(slug: "scene-not-found", status: 404, title: "Scene not found")
    /// 404: the scene has no such action.
    package static let actionNotFound = Self(slug: "action-not-found", status: 404, title: "Action not found")
    /// 404: the scene publishes no snapshot.
    package static let snapshotNotFound = Self(slug: "snapshot-not-found", status: 404, title: "Snapshot not found")
    /// 422: an input member is unknown or has the wrong type.
    package static let invalidInput = Self(slug: "invalid-input", status: 422, title: "Invalid input")
    /// 422: the action's arguments do not fit it.
    package static let invalidArguments = Self(slug: "invalid-arguments", status: 422, title: "Invalid arguments")
    /// 422: the view model refused the action as a whole (its arguments may be fine).
    package static let actionRefused = Self(slug: "action-refused", status: 422, title: "Action refused")
    /// 409: the navigation cannot take this step (e.g. back at the root).
    package static let navigationConflict = Self(slug: "navigation-conflict", status: 409, title: "Navigation conflict")
    /// 409: the key holds a view model of another scene type.
    package static let sceneConflict = Self(slug: "scene-conflict", status: 409, title: "Scene conflict")
    /// 410: the events after this sequence number are no longer kept.
    package static let eventsExpired = Self(slug: "events-expired", status: 410, title: "Events expired")
    /// 503: too many requests are parked, or too many sessions live.
    package static let invalidJournal = Self(slug: "invalid-journal", status: 422, title: "Invalid journal")
    package static let capacity = Self(slug: "capacity-reached", status: 503, title: "Capacity reached")
}

extension HTTPError {
    /// A 503 `capacity-reached` with a Retry-After header.
    static func capacity(_ detail: String, retryAfterSeconds: Int = 1) -> HTTPError {
        HTTPError(.capacity, detail: detail, headers: [Header(name: "Retry-After", value: String(retryAfterSeconds))])
    }

    /// The 503 to a request that would wait while too many requests are parked already.
    static let parkingFull = capacity("Too many requests are parked; retry shortly.")

    /// Maps an error thrown by the MVVM core to the problem that answers it.
    static func from(_ error: any Error) -> HTTPError {
        switch error {
        case let error as HTTPError:
            return error
        case let error as ViewModelStoreError:
            return HTTPError(error.isUnknownKey ? .sceneNotFound : .sceneConflict, detail: error.description)
        case let error as InputError:
            return HTTPError(.invalidInput, detail: "The input member \(error.description).", member: error.member)
        case let error as ActionError:
            switch error {
            case .unknown: return HTTPError(.actionNotFound, detail: error.description)
            case .invalidArguments(let input): return HTTPError(.invalidArguments, detail: "The \(error.description).", member: input.member)
            case .itemNotFound: return HTTPError(.invalidArguments, detail: error.description)
            }
        case let refusal as Refusal:
            switch refusal.subject {
            case .input(let member): return HTTPError(.invalidInput, detail: refusal.description, member: member)
            case .argument(let name): return HTTPError(.invalidArguments, detail: refusal.description, member: name)
            case .action: return HTTPError(.actionRefused, detail: refusal.description)
            }
        case let error as NavigationError:
            return HTTPError(.navigationConflict, detail: error.description)
        default:
            return .internal("The scene failed: \(String(describing: type(of: error))).")
        }
    }
}
