// What a scene author and an app use, through `import MVVMServer` alone: the MVVM core, the
// JSON value, the HTTP server's settings and errors, swift-log's Logger, and
// swift-service-lifecycle's ServiceGroup with the signals it handles.
@_exported import Logging
@_exported import MVVMCore
@_exported import MVVMJSON
@_exported import ServiceLifecycle

@_exported import struct MVVMHTTP.HTTPServerConfiguration
@_exported import struct MVVMHTTP.HTTPServerError
@_exported import struct UnixSignals.UnixSignal
