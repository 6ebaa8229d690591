import Foundation

/// Foundation's file errors in words: "Cannot write /data/push-device.json: Permission
/// denied." instead of `Error Domain=NSCocoaErrorDomain Code=513 "(null)" UserInfo={…}`,
/// which is what `"\(error)"` gives on Linux. The file and the system's reason are what a
/// person can act on.
enum PlatformErrorText {
  static func describe(_ error: any Error) -> String? {
    let error = error as NSError
    guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else {
      return nil
    }
    let path =
      (error.userInfo[NSFilePathErrorKey] as? String)
      ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    let reason = systemReason(of: error) ?? fallbackReason(code: error.code)
    let verb = isWrite(error.code) ? "Cannot write" : "Cannot use"
    guard let path else { return "\(verb) a file: \(reason)." }
    return "\(verb) \(path): \(reason)."
  }

  /// The errno beneath, as the system says it ("Permission denied").
  private static func systemReason(of error: NSError) -> String? {
    if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
    guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    else { return nil }
    return String(cString: strerror(Int32(underlying.code)))
  }

  private static func fallbackReason(code: Int) -> String {
    switch CocoaError.Code(rawValue: code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: "no such file"
    case .fileReadNoPermission, .fileWriteNoPermission: "permission denied"
    case .fileWriteOutOfSpace: "the disk is full"
    case .fileWriteVolumeReadOnly: "the disk is read-only"
    default: "the system refused (code \(code))"
    }
  }

  private static func isWrite(_ code: Int) -> Bool {
    (CocoaError.Code.fileWriteUnknown.rawValue...CocoaError.Code.fileWriteVolumeReadOnly.rawValue)
      .contains(code)
  }
}
