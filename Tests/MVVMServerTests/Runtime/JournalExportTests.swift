import Foundation
import Testing

@testable import MVVMJSON
@testable import MVVMServer

extension Internals {
    /// The journal's JSON export is written from the bytes recorded; it must say what the
    /// entries say, as Foundation's encoder writes them.
    @Suite("A journal's exported bytes")
    struct JournalExportTests {
        private static func foundationEncoding(_ document: JournalDocument) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(document), as: UTF8.self)
        }

        private static func exported(_ journal: SessionJournal, session: String) -> String {
            String(decoding: journal.exportedDocument(session: session), as: UTF8.self)
        }

        @Test("With bodies and answers as the encoder writes them, the bytes are Foundation's encoding of the entries")
        func sameBytes() throws {
            let journal = SessionJournal()
            journal.record(
                method: "POST", path: "/scenes/car/input", body: Data(#"{"make":"Fiat"}"#.utf8), status: 200,
                answer: Data(#"{"input":{"make":"Fiat","model":"a/b \"q\""},"version":3}"#.utf8))
            journal.record(method: "POST", path: "/navigation/back", body: Data(), status: 200, answer: Data(#"{"stack":[]}"#.utf8))
            journal.record(method: "POST", path: "/scenes/car/input", body: Data("not json\n\u{1}é".utf8), status: 400, answer: Data())
            journal.record(method: "POST", path: "/clear", body: Data("[1,2.5,-3]".utf8), status: 204, answer: Data("plain text".utf8))
            let (entries, dropped) = journal.export
            let document = JournalDocument(session: "S/1", dropped: dropped, capacity: SessionJournal.capacity, entries: entries)
            #expect(Self.exported(journal, session: "S/1") == (try Self.foundationEncoding(document)))
            #expect(entries[2].rawBody == "not json\n\u{1}é" && entries[2].body == .null)
            #expect(entries[3].answer == .null, "an answer that is not JSON is exported as null")
        }

        @Test("A body sent with other spacing and member order goes in as sent, and reads as the same entry")
        func bodyAsSent() throws {
            let journal = SessionJournal()
            let body = " {\n  \"model\": \"Urus\", \"make\" : \"Lamborghini\"\t}\r\n"
            journal.record(method: "POST", path: "/scenes/car/input", body: Data(body.utf8), status: 200, answer: Data(#"{"version":1}"#.utf8))
            let bytes = journal.exportedDocument(session: "s")
            #expect(String(decoding: bytes, as: UTF8.self).contains(body))
            let read = try JSONCoding.decode(JournalDocument.self, from: bytes)
            #expect(read.entries == journal.export.entries)
            #expect(read.entries.first?.body == .object(["make": .string("Lamborghini"), "model": .string("Urus")]))
            #expect(read.entries.first?.rawBody == nil)
        }

        @Test("Once the ring is full the export starts at the oldest entry kept and counts the dropped ones")
        func wrapped() throws {
            let journal = SessionJournal()
            for step in 1...(SessionJournal.capacity + 5) {
                let body = Data(#"{"step":\#(step)}"#.utf8)
                journal.record(method: "POST", path: "/scenes/counter/input", body: body, status: 200, answer: Data("{}".utf8))
            }
            let (entries, dropped) = journal.export
            let document = JournalDocument(session: "s", dropped: dropped, capacity: SessionJournal.capacity, entries: entries)
            #expect(Self.exported(journal, session: "s") == (try Self.foundationEncoding(document)))
            #expect(dropped == 5 && entries.first?.seq == 6 && entries.last?.seq == SessionJournal.capacity + 5)
        }
    }
}
