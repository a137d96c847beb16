import Foundation
import MVVMJSON

/// A view model behind a type-erased face, so that the store can keep view models of many
/// types and the API can drive them from JSON.
class AnyViewModel {
    /// The view model itself.
    var object: AnyObject { fatalError("subclass") }
    /// The module-qualified name of the view model's type.
    var typeName: String { fatalError("subclass") }
    var inputMembers: [String] { [] }
    var actionNames: [String] { [] }
    var snapshot: Snapshot? { nil }
    func encodedInput() throws -> [UInt8] { fatalError("subclass") }
    func encodedOutput() throws -> EncodedMembers { fatalError("subclass") }
    func mergeInput(_ patch: InputPatch, current: [UInt8]) throws {}
    func perform(action name: String, arguments: [String: JSONValue]) async throws {}
    func load() async throws {}
    func onCleared() {}
}

// Exclusivity of its input fields is not checked at run time (@exclusivity(unchecked)): they are
// read and written only in encodedInput() and mergeInput(_:current:), with plain reads and
// writes, on the context's isolation.
/// The concrete box around one view model.
final class ViewModelBox<Model: ViewModel>: AnyViewModel {
    let model: Model
    /// The model as a snapshot provider, cast once (the store reads it on every change).
    private let snapshotProvider: (any SnapshotProviding)?
    /// The input as last encoded, and its encoding, empty until the first (a JSON value is never
    /// empty). Neither an optional nor a tuple: in this generic class the type of an
    /// `Model.Input?` or of a tuple is looked up at run time on every use.
    @exclusivity(unchecked) private var lastInput: Model.Input
    @exclusivity(unchecked) private var lastInputEncoding: [UInt8] = []
    /// The input's member names once an input was merged: read from the process-wide table,
    /// which is behind a lock every thread shares, on the first input only.
    @exclusivity(unchecked) private var knownInputMembers: InputMembers?

    init(_ model: Model) {
        self.model = model
        lastInput = model.input
        snapshotProvider = model as? any SnapshotProviding
    }

    override var object: AnyObject { model }
    override var typeName: String { String(reflecting: Model.self) }
    override var inputMembers: [String] { Model.Input.memberNames }
    override var actionNames: [String] { Model.Action.names }
    override var snapshot: Snapshot? { snapshotProvider?.snapshot }
    override func encodedInput() throws -> [UInt8] {
        // Most changes (loads, actions, lifecycle steps) leave the input as it was: the input is
        // Equatable, so its last encoding is reused until it differs.
        let input = model.input
        if !lastInputEncoding.isEmpty, lastInput == input { return lastInputEncoding }
        let encoded = try JSONBytesEncoder.encode(input)
        lastInput = input
        lastInputEncoding = encoded
        return encoded
    }
    override func encodedOutput() throws -> EncodedMembers { try JSONBytesEncoder.encodeMembers(model.output) }

    /// Merges members into the input: members not sent keep their values; an unknown member
    /// or a value of the wrong type throws ``InputError`` and changes nothing.
    /// `current` is the input as last encoded (empty when unknown).
    override func mergeInput(_ patch: InputPatch, current: [UInt8]) throws {
        let known = knownInputMembers ?? Model.Input.members
        knownInputMembers = known
        // The merged input and the names sent are written in place: in this generic class an
        // optional or a tuple of them would be a type looked up at run time.
        var input = model.input
        var sent: Set<String> = []
        if !mergeFromBytes(patch, current: current, known: known, into: &input, sent: &sent) {
            try merge(patch.members, current: current, known: known, into: &input, sent: &sent)
        }
        // Validated even when nothing changes: a value sent that equals the current one is
        // still the client's to have refused.
        try model.validate(input, sent: sent)
        guard input != model.input else { return }
        model.input = input
        model.inputDidChange()
    }

    /// Sets `input` to the current input with `members` merged in, and `sent` to the names sent.
    private func merge(_ members: [String: JSONValue], current: [UInt8], known: InputMembers, into input: inout Model.Input, sent: inout Set<String>)
        throws
    {
        if members.keys.contains(where: { !known.all.contains($0) }), let unknown = members.keys.sorted().first(where: { !known.all.contains($0) }) {
            throw InputError(
                member: unknown, reason: "is not an input member of this scene (members: \(known.ordered.sorted().joined(separator: ", ")))")
        }
        // Every member sent (all of them known, so none missing): nothing of the current input
        // is kept, and it need not be read, and the members sent are the known ones.
        let sentAll = members.count == known.all.count
        let merged: [String: JSONValue]
        if sentAll {
            merged = members
        } else {
            let encoded = try JSONValue(json: Data(current)) ?? JSONValue(encoding: model.input)
            merged = (encoded.objectValue ?? [:]).merging(members) { _, new in new }
        }
        do {
            input = try JSONValue.object(merged).decode(Model.Input.self)
        } catch let error as DecodingError {
            throw InputError(decoding: error, fallbackMember: members.keys.sorted().first ?? "input")
        }
        sent = sentAll ? known.all : Set(members.keys)
    }

    /// ``merge(_:current:known:into:sent:)`` for a plain JSON object, decoded from its bytes
    /// over the current input's without parsing either whole; `false` (and nothing set) to
    /// merge parsed members instead: an unknown member, a name beyond ASCII, no current
    /// encoding, or a decoding error, which the parsed merge reports as it always has.
    private func mergeFromBytes(_ patch: InputPatch, current: [UInt8], known: InputMembers, into input: inout Model.Input, sent: inout Set<String>)
        -> Bool
    {
        guard case .object(let object) = patch, known.areASCII, object.keys(areAmong: known.ordered) else { return false }
        let sentAll = object.keyCount == known.all.count
        var base: JSONObjectBytes?
        if !sentAll {
            guard let current = JSONObjectBytes(current) else { return false }
            base = current
        }
        do {
            input = try JSONObjectMembers(object, over: base).decode(Model.Input.self)
        } catch {
            return false
        }
        sent = sentAll ? known.all : Set(object.keys)
        return true
    }

    override func perform(action name: String, arguments: [String: JSONValue]) async throws {
        guard Model.Action.names.contains(name) else { throw ActionError.unknown(name) }
        let action: Model.Action
        do {
            action = try Model.Action(name: name, arguments: ActionArguments(arguments))
        } catch let error as DecodingError {
            throw ActionError.invalidArguments(InputError(decoding: error, fallbackMember: name))
        } catch let error as InputError {
            throw ActionError.invalidArguments(error)
        }
        try await model.perform(action)
    }

    override func load() async throws { try await model.load() }
    override func onCleared() { model.onCleared() }
}
