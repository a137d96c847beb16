import MVVMCore
import MVVMJSON
import MVVMSupport

extension Core {
    /// A view model that writes its `onCleared()` to a recorder, to see where it comes in the
    /// clearing order (tasks cancelled, resources closed, then `onCleared()`).
    final class ClearingViewModel: ViewModel {
        struct Output: Codable, Sendable, Equatable {
            var name: String
        }

        var input = EmptyInput()
        let output: Output
        private let recorder: Recorder

        init(name: String, recorder: Recorder) {
            output = Output(name: name)
            self.recorder = recorder
        }

        func onCleared() {
            recorder.record("\(output.name): onCleared")
        }
    }

    /// A resource (a subscription, a file) that writes its closing to a recorder.
    final class RecordingResource: ViewModelResource {
        private let name: String
        private let recorder: Recorder
        private(set) var closeCount = 0

        init(name: String, recorder: Recorder) {
            self.name = name
            self.recorder = recorder
        }

        func close() {
            closeCount += 1
            recorder.record("\(name): closed")
        }
    }
}
