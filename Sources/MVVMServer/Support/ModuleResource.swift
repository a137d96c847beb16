import Foundation

/// A file shipped among the framework's resources (`Resources/` in Package.swift).
enum ModuleResource {
    /// The bytes of the resource `name`.`type`, in `subdirectory` when one is given (found by
    /// its path from the bundle's root too); `nil` when the build lacks it or it cannot be read.
    static func data(_ name: String, _ type: String, subdirectory: String? = nil) -> Data? {
        let url =
            Bundle.module.url(forResource: name, withExtension: type, subdirectory: subdirectory)
            ?? subdirectory.flatMap { Bundle.module.url(forResource: "\($0)/\(name)", withExtension: type) }
        return url.flatMap { try? Data(contentsOf: $0) }
    }
}
