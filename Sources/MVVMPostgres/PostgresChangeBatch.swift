// Built with the PostgreSQL trait only (Package.swift): without it, this module is empty and
// postgres-nio is not built.
#if PostgreSQL
    import Foundation
    import MVVMCore
    import MVVMJSON
    import PostgresNIO

    /// A batch of changes as one JSON document, applied in order by one call of the database
    /// function `mvvm_apply`, in one statement (its own transaction): one round trip per batch,
    /// whatever its size.
    ///
    /// Each change is written only when the server holds the session: a save, deletion or touch of
    /// a session this server holds is conditional on its fence (`fence`); a save of a session this
    /// server made (no fence yet) inserts it, unless the id is taken. The function returns a row
    /// per session it inserted (`made`) and per save or deletion it refused (`refused`, with the
    /// change's item); a touch refused is left to the session's new holder.
    struct PostgresChangeBatch: Encodable {
        /// One change, with the index of the commit (item) it belongs to.
        struct Change: Encodable {
            var item: Int
            var op: String
            var id: String
            var fence: Int64?
            var createdAt: Int64?
            var lastUsed: Int64?
            var version: Int64?
            /// Base64.
            var navigation: String?
            var complete: Bool?
            var removed: [String]?
            var entries: [Entry]?
        }

        /// A view model of a saved session.
        struct Entry: Encodable {
            var key: String
            var position: Int
            var scene: String
            /// Base64.
            var input: String
            /// Whether `values` replace the saved values (otherwise they are left as they are).
            var valuesChanged: Bool
            /// Base64 values by name.
            var values: [String: String]
        }

        var changes: [Change] = []

        /// The changes of `items` (commits, in order); `fence` gives the fence this server holds
        /// for a session, `nil` when it made it and has not saved it yet.
        init(_ items: [[SessionChange]], fence: (String) -> Int64?) {
            for (item, itemChanges) in items.enumerated() {
                for change in itemChanges {
                    switch change {
                    case .delete(let id):
                        changes.append(Change(item: item, op: "delete", id: id, fence: fence(id)))
                    case .touch(let id, let lastUsed):
                        changes.append(Change(item: item, op: "touch", id: id, fence: fence(id), lastUsed: lastUsed))
                    case .save(let session):
                        changes.append(
                            Change(
                                item: item, op: "save", id: session.id, fence: fence(session.id),
                                createdAt: session.createdAt, lastUsed: session.lastUsed, version: Int64(bitPattern: session.version),
                                navigation: session.navigation.map { Data($0).base64EncodedString() },
                                complete: session.isComplete, removed: session.removedKeys,
                                entries: session.entries.map { entry in
                                    Entry(
                                        key: entry.key, position: entry.position, scene: entry.scene, input: Data(entry.input).base64EncodedString(),
                                        valuesChanged: entry.valuesChanged || session.isComplete,
                                        values: entry.values.mapValues { Data($0).base64EncodedString() })
                                }))
                    }
                }
            }
        }

        /// The batch as the function's argument.
        func json() throws -> String {
            String(decoding: try JSONBytesEncoder.encode(changes), as: UTF8.self)
        }

        /// `mvvm_apply(batch jsonb, writer text)`: applies the batch's changes in order as described
        /// above; `writer` is the owner written with the sessions inserted.
        static let applyFunction: PostgresQuery = #"""
            CREATE FUNCTION mvvm_apply(batch jsonb, writer text)
            RETURNS TABLE (batch_item integer, outcome text, outcome_id text)
            LANGUAGE plpgsql AS $function$
            DECLARE
                change jsonb;
                entry jsonb;
                saved record;
                removed_key text;
                change_id text;
                held bigint;
                is_complete boolean;
                made text[] := '{}';
            BEGIN
                FOR change IN SELECT value FROM jsonb_array_elements(batch) LOOP
                    change_id := change->>'id';
                    held := (change->>'fence')::bigint;
                    IF held IS NULL AND change_id = ANY (made) THEN held := 0; END IF;
                    IF change->>'op' = 'touch' THEN
                        UPDATE mvvm_session SET last_used = greatest(last_used, (change->>'lastUsed')::bigint)
                        WHERE id = change_id AND fence = held;
                        CONTINUE;
                    END IF;
                    IF change->>'op' = 'delete' THEN
                        DELETE FROM mvvm_session WHERE id = change_id AND fence = held;
                    ELSIF held IS NOT NULL THEN
                        UPDATE mvvm_session SET last_used = (change->>'lastUsed')::bigint, version = (change->>'version')::bigint,
                            navigation = coalesce(decode(change->>'navigation', 'base64'), navigation)
                        WHERE id = change_id AND fence = held;
                    ELSE
                        INSERT INTO mvvm_session (id, created_at, last_used, version, navigation, fence, owner)
                        VALUES (change_id, (change->>'createdAt')::bigint, (change->>'lastUsed')::bigint, (change->>'version')::bigint,
                                coalesce(decode(change->>'navigation', 'base64'), convert_to('null', 'UTF8')), 0, writer)
                        ON CONFLICT (id) DO NOTHING;
                        IF FOUND THEN
                            made := made || change_id;
                            batch_item := (change->>'item')::integer; outcome := 'made'; outcome_id := change_id;
                            RETURN NEXT;
                        END IF;
                    END IF;
                    IF NOT FOUND THEN
                        batch_item := (change->>'item')::integer; outcome := 'refused'; outcome_id := change_id;
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                    CONTINUE WHEN change->>'op' = 'delete';
                    is_complete := (change->>'complete')::boolean;
                    IF is_complete THEN
                        DELETE FROM mvvm_entry WHERE session_id = change_id;
                        DELETE FROM mvvm_saved_value WHERE session_id = change_id;
                    END IF;
                    FOR removed_key IN SELECT value FROM jsonb_array_elements_text(change->'removed') LOOP
                        DELETE FROM mvvm_entry WHERE session_id = change_id AND key = removed_key;
                        DELETE FROM mvvm_saved_value WHERE session_id = change_id AND key = removed_key;
                    END LOOP;
                    FOR entry IN SELECT value FROM jsonb_array_elements(change->'entries') LOOP
                        INSERT INTO mvvm_entry (session_id, key, position, scene, input)
                        VALUES (change_id, entry->>'key', (entry->>'position')::bigint, entry->>'scene', decode(entry->>'input', 'base64'))
                        ON CONFLICT (session_id, key) DO UPDATE SET position = excluded.position, scene = excluded.scene, input = excluded.input;
                        CONTINUE WHEN NOT (entry->>'valuesChanged')::boolean;
                        IF NOT is_complete THEN
                            DELETE FROM mvvm_saved_value WHERE session_id = change_id AND key = entry->>'key';
                        END IF;
                        FOR saved IN SELECT key, value FROM jsonb_each_text(entry->'values') LOOP
                            INSERT INTO mvvm_saved_value (session_id, key, name, value)
                            VALUES (change_id, entry->>'key', saved.key, decode(saved.value, 'base64'));
                        END LOOP;
                    END LOOP;
                END LOOP;
            END
            $function$
            """#
    }
#endif
