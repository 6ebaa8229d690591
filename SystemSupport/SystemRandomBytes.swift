/// Random bytes from the system's generator: what tokens, salts and device ids are made of
/// outside tests, which inject their own.
public enum SystemRandomBytes {
  public static func make(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
  }
}
