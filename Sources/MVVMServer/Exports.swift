// What a scene author uses, through `import MVVMServer` alone: the MVVM core, the JSON value,
// the HTTP server's settings and swift-log's Logger.
@_exported import Logging
@_exported import MVVMCore
@_exported import struct MVVMHTTP.HTTPServerConfiguration
@_exported import MVVMJSON
