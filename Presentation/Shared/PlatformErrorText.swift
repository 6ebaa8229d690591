import Foundation

/// Foundation's file errors in words: "Cannot write /data/push-device.json: Permission
/// denied. Check the permissions of the file and its folder." instead of `Error
/// Domain=NSCocoaErrorDomain Code=513 "(null)" UserInfo={…}`, which is what `"\(error)"`
/// gives on Linux. The file, the system's reason and what to do about it are what a person
/// can act on.
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
    let remedy = remedy(errno: errno(of: error), code: error.code).map { " " + $0 } ?? ""
    guard let path else { return "\(verb) a file: \(reason).\(remedy)" }
    return "\(verb) \(path): \(reason).\(remedy)"
  }

  /// What to do about the commonest troubles with a file: a full disk, a read-only one,
  /// permissions, a failing disk, a folder gone.
  private static func remedy(errno: Int32?, code: Int) -> String? {
    switch (errno, CocoaError.Code(rawValue: code)) {
    case (ENOSPC, _), (_, .fileWriteOutOfSpace): "Free some space on its disk."
    case (EROFS, _), (_, .fileWriteVolumeReadOnly):
      "Its disk is read-only: use another data folder (--data-dir or APP_DATA_DIR)."
    case (EACCES, _), (EPERM, _), (_, .fileReadNoPermission), (_, .fileWriteNoPermission):
      "Check the permissions of the file and its folder."
    case (EIO, _): "The disk reported an I/O error: it may be failing or gone."
    case (ENOENT, _), (_, .fileNoSuchFile), (_, .fileReadNoSuchFile):
      "Check that it, or its folder, still exists."
    default: nil
    }
  }

  private static func errno(of error: NSError) -> Int32? {
    if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
    guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    else { return nil }
    return Int32(underlying.code)
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
