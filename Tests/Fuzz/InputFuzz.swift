import Foundation
import MVVMCore
import MVVMHTTP
import MVVMJSON

/// A view model whose input has a member of each kind a client sets: text, whole and
/// fractional numbers, a flag, an optional, a nested struct, an enum and a list.
final class FuzzFormViewModel: ViewModel {
    struct Address: Codable, Sendable, Equatable {
        var street = ""
        var number = 0
    }

    enum Mode: String, Codable, Sendable {
        case off, on, auto
    }

    struct Input: ViewModelInput {
        var name = ""
        var count = 0
        var ratio = 0.0
        var enabled = false
        var note: String?
        var address = Address()
        var mode = Mode.off
        var tags: [String] = []
    }

    struct Output: Codable, Sendable, Equatable {
        var summary = ""
        var total = 0.0
    }

    var input = Input()
    private(set) var output = Output()
    /// How many times the store told the view model that its input changed.
    private(set) var inputChanges = 0

    func inputDidChange() {
        inputChanges += 1
        output = Output(summary: "\(input.name) \(input.mode.rawValue) \(input.tags.count)", total: Double(input.count) * input.ratio)
    }
}

/// `ViewModelStore.setInput`: a client's input members merged into a view model's input and
/// decoded. The input is a JSON object of members, or an array of up to 8 such objects set in turn.
///
/// Properties, after each set:
/// - a rejected set (it throws) names a member it sent and changes nothing: the view model's
///   input, its encoded form, the entry's version and state document, and `inputDidChange` calls;
/// - an accepted set names only input members; each member sent is stored with exactly the value
///   sent (`null` only for the optional, which then is absent; a nested object's members that
///   its type does not declare are ignored, as Codable does); members not sent keep their values;
///   `inputDidChange` runs once when the input changed and not otherwise; the version moves
///   exactly when the input changed; the state document holds the new input and the version;
/// - setting the same members again is accepted and changes nothing.
enum InputFuzz {
    static let key = "form"

    static func run(_ data: [UInt8]) throws(PropertyViolation) {
        let check = Checker(target: "input")
        guard let document = RequestParsers.json(data) else { return }
        let steps: [[String: JSONValue]]
        switch document {
        case .object(let members): steps = [members]
        case .array(let elements): steps = elements.prefix(8).compactMap(\.objectValue)
        default: return
        }

        let store = ViewModelStore()
        let model: FuzzFormViewModel
        let entry: StoreEntry
        do {
            model = try store.get(key: key, factory: SingleViewModelFactory { _ in FuzzFormViewModel() })
            guard let made = store.entry(key) else { throw check.fail("the store has no entry after get") }
            entry = made
        } catch {
            throw check.fail("the store cannot make the fixture: \(error)")
        }
        for members in steps {
            try step(members, store: store, model: model, entry: entry, check: check)
        }
    }

    private static func step(_ members: [String: JSONValue], store: ViewModelStore, model: FuzzFormViewModel, entry: StoreEntry, check: Checker)
        throws(PropertyViolation)
    {
        let sent = String(decoding: JSONValue.object(members).jsonData.prefix(300), as: UTF8.self)
        let input = model.input
        let encoded = try encode(input, check: check)
        let object = try object(of: input, check: check)
        let version = entry.version
        let document = entry.document
        let changes = model.inputChanges

        do {
            // As the server takes a body: its bytes when they are a plain object.
            try store.setInput(InputPatch.of(JSONValue.object(members).jsonData) { _ in members }, key: key)
        } catch {
            guard let error = error as? InputError else { throw check.fail("setting \(sent) threw \(error), not an InputError") }
            let named = members.keys.contains { error.member == $0 || error.member.hasPrefix($0 + ".") }
            try check.expect(named, "the rejection of \(sent) names \(error.member.debugDescription), which it did not send")
            try check.expect(model.input == input, "the rejected \(sent) changed the input")
            try check.expect(try self.encode(model.input, check: check) == encoded, "the rejected \(sent) changed the encoded input")
            try check.expect(entry.version == version && entry.document == document, "the rejected \(sent) published a new state")
            try check.expect(model.inputChanges == changes, "the rejected \(sent) called inputDidChange")
            return
        }

        let known = Set(FuzzFormViewModel.Input.memberNames)
        try check.expect(members.keys.allSatisfy(known.contains), "\(sent) sets members that are not inputs but was accepted")
        let after = try self.object(of: model.input, check: check)
        for name in known {
            guard let value = members[name] else {
                try check.expect(
                    after[name] == object[name],
                    "\(name), not sent in \(sent), changed from \(String(describing: object[name])) to \(String(describing: after[name]))")
                continue
            }
            let stored = after[name]
            if value == .null {
                try check.expect(stored == nil, "\(name) set to null in \(sent) holds \(String(describing: stored))")
            } else {
                try check.expect(
                    matches(stored, sent: value),
                    "\(name) set to \(String(decoding: value.jsonData.prefix(200), as: UTF8.self)) in \(sent) holds \(String(describing: stored))")
            }
        }
        let changed = model.input != input
        try check.expect(
            model.inputChanges == changes + (changed ? 1 : 0),
            "inputDidChange ran \(model.inputChanges - changes) times for \(sent) (input changed: \(changed))")
        try check.expect(
            (entry.version != version) == changed, "the version went from \(version) to \(entry.version) for \(sent) (input changed: \(changed))")
        guard let state = RequestParsers.json(Array(entry.document))?.objectValue else {
            throw check.fail("the state document after \(sent) is not a JSON object")
        }
        try check.expect(state["input"] == .object(after), "the state document's input after \(sent) is \(String(describing: state["input"]))")
        try check.expect(
            state["version"] == .number(Double(entry.version)),
            "the state document's version after \(sent) is \(String(describing: state["version"])), not \(entry.version)")

        // Idempotent: the same members again change nothing.
        let settled = (version: entry.version, document: entry.document, changes: model.inputChanges, input: model.input)
        do {
            try store.setInput(.members(members), key: key)
        } catch {
            throw check.fail("setting \(sent) again threw \(error)")
        }
        try check.expect(
            model.input == settled.input && entry.version == settled.version && entry.document == settled.document
                && model.inputChanges == settled.changes,
            "setting \(sent) again changed the state")
    }

    /// Whether a stored member is the value sent: objects compare on the members the stored one
    /// has (undeclared nested members are ignored, as Codable does), everything else exactly.
    private static func matches(_ stored: JSONValue?, sent: JSONValue) -> Bool {
        guard let stored else { return false }
        switch (stored, sent) {
        case (.object(let storedMembers), .object(let sentMembers)):
            return storedMembers.allSatisfy { name, value in sentMembers[name].map { matches(value, sent: $0) } ?? false }
        case (.array(let storedElements), .array(let sentElements)):
            return storedElements.count == sentElements.count && zip(storedElements, sentElements).allSatisfy { matches($0, sent: $1) }
        case (.number(let storedNumber), .integer(let sentInteger)):
            // A Double member holds the Double nearest a whole number it is sent (2^53 + 1
            // becomes 2^53), as Foundation's decoder reads it.
            return storedNumber == Double(sentInteger)
        default:
            return stored == sent
        }
    }

    private static func encode(_ input: FuzzFormViewModel.Input, check: Checker) throws(PropertyViolation) -> Data {
        do {
            return try JSONCoding.encode(input)
        } catch {
            throw check.fail("the input \(input) cannot be encoded: \(error)")
        }
    }

    private static func object(of input: FuzzFormViewModel.Input, check: Checker) throws(PropertyViolation) -> [String: JSONValue] {
        do {
            guard let members = try JSONValue(encoding: input).objectValue else {
                throw check.fail("the input \(input) does not encode to an object")
            }
            return members
        } catch let violation as PropertyViolation {
            throw violation
        } catch {
            throw check.fail("the input \(input) cannot be encoded: \(error)")
        }
    }
}
