import Domain

/// The text of every preparation screen and event, as lines for a line-oriented front end.
/// Pure functions, so they can run wherever the session reports from.
public enum PreparationScreen {
  /// `[2/3] Quiet around`, or `[Hearing check]`.
  public static func title(_ stage: PreparationStage) -> String {
    switch stage {
    case .requirement(let requirement):
      let number = (PreparationFlow.order.firstIndex(of: requirement) ?? 0) + 1
      return "[\(number)/\(PreparationFlow.order.count)] \(name(requirement))"
    case .hearingCheck: return "[Hearing check]"
    }
  }

  /// The lines shown when a stage comes on screen.
  public static func lines(showing stage: PreparationStage, microphone: MicrophoneAccess)
    -> [String]
  {
    let body: String
    switch stage {
    case .requirement(.headphones):
      body = "Connect your headphones. Type `next` when they are connected."
    case .requirement(.quiet) where microphone == .denied:
      body =
        "The noise cannot be measured: microphone access was denied. "
        + "Type `test anyway` to go on without the quiet check."
    case .requirement(.quiet):
      body =
        "Find a quiet place: at most \(decibels(SensorReading.quietNoiseLimit)) around you. "
        + "Type `next` when it is quiet, or `test anyway` to go on without this check."
    case .requirement(.systemVolume):
      body =
        "Set the system volume to \(SensorReading.requiredVolume)%. Type `next` when it is."
    case .hearingCheck:
      body =
        "Everything is ready. The hearing check would start here; it is not part of this app. "
        + "Type `back` to return to the volume, or `quit` to end."
    }
    return ["", title(stage), body]
  }

  /// The lines for one event of a session.
  public static func lines(for event: PreparationEvent, microphone: MicrophoneAccess) -> [String] {
    switch event {
    case .showing(let stage): lines(showing: stage, microphone: microphone)
    case .skippedQuietCheck: ["Going on without the quiet check: the noise is no longer observed."]
    case .interrupted(let interruption, let dismissIn):
      [
        "", "[!] \(headline(interruption))",
        dismissIn.map { satisfied(interruption, in: $0) } ?? remedy(interruption),
      ]
    case .interruptionSatisfied(let interruption, let dismissIn):
      [satisfied(interruption, in: dismissIn)]
    case .interruptionViolatedAgain(let interruption):
      ["\(headline(interruption)) again: staying here. \(remedy(interruption))"]
    case .returned(let stage): ["", "Back to \(title(stage))."]
    case .refused(let refusal): [text(refusal)]
    case .ended(let stage): ["Preparation ended at \(title(stage))."]
    }
  }

  /// What `status` shows: every sensor, and what is on screen.
  public static func status(
    _ readings: SensorReadings, stage: PreparationStage,
    interruption: PreparationInterruption?, microphone: MicrophoneAccess
  ) -> [String] {
    let noise =
      microphone == .denied
      ? "not measured (no microphone access)" : describe(.noise(decibels: readings.noiseDecibels))
    let onScreen = interruption.map { "\(headline($0)), over \(title(stage))" } ?? title(stage)
    return [
      "Headphones: \(describe(.headphones(connected: readings.headphonesConnected)))",
      "Noise: \(noise)",
      "Volume: \(describe(.systemVolume(percent: readings.systemVolumePercent)))",
      "On screen: \(onScreen)",
    ]
  }

  /// `45 dB`, or `45.5 dB`.
  public static func decibels(_ value: Double) -> String {
    value.rounded() == value ? "\(Int(value)) dB" : "\(value) dB"
  }

  private static func name(_ requirement: PreparationRequirement) -> String {
    switch requirement {
    case .headphones: "Headphones"
    case .quiet: "Quiet around"
    case .systemVolume: "System volume"
    }
  }

  private static func headline(_ interruption: PreparationInterruption) -> String {
    switch interruption {
    case .headphones: "Headphones disconnected"
    case .systemVolume: "System volume changed"
    case .loudness: "Too loud"
    }
  }

  private static func remedy(_ interruption: PreparationInterruption) -> String {
    switch interruption {
    case .headphones: "Reconnect your headphones to go on."
    case .systemVolume: "Set the system volume back to \(SensorReading.requiredVolume)% to go on."
    case .loudness:
      "Find a quiet place to go on, or type `test anyway` to go on without the quiet check."
    }
  }

  private static func satisfied(_ interruption: PreparationInterruption, in delay: Duration)
    -> String
  {
    let fixed =
      switch interruption {
      case .headphones: "Headphones connected"
      case .systemVolume: "Volume back at \(SensorReading.requiredVolume)%"
      case .loudness: "Quiet again"
      }
    return "\(fixed): going back in \(seconds(delay))."
  }

  private static func describe(_ reading: SensorReading) -> String {
    let verdict = reading.meetsItsRequirement ? "ok" : "not ok"
    switch reading {
    case .headphones(let connected): return connected ? "connected" : "not connected"
    case .noise(let value):
      return
        "\(decibels(value)) (\(verdict): quiet is \(decibels(SensorReading.quietNoiseLimit)) or less)"
    case .systemVolume(let percent):
      return "\(percent)% (\(verdict): it must be \(SensorReading.requiredVolume)%)"
    }
  }

  private static func text(_ refusal: PreparationRefusal) -> String {
    switch refusal {
    case .notMet(.headphones): "Not yet: the headphones are not connected."
    case .notMet(.noise(let value)):
      "Not yet: it is too loud, \(decibels(value)) (quiet is "
        + "\(decibels(SensorReading.quietNoiseLimit)) or less). "
        + "Type `test anyway` to go on without the quiet check."
    case .notMet(.systemVolume(let percent)):
      "Not yet: the volume is \(percent)%; it must be \(SensorReading.requiredVolume)%."
    case .cannotMeasureNoise:
      "The noise cannot be measured without microphone access. "
        + "Type `test anyway` to go on without the quiet check."
    case .interruptionShowing(let interruption):
      "Not now: \(headline(interruption).lowercased()). \(remedy(interruption))"
    case .atFirstRequirement: "This is the first requirement: there is nothing to go back to."
    case .atHearingCheck:
      "Every requirement is accepted: what comes next is the hearing check, "
        + "which is not part of this app."
    case .nothingToSkip:
      "`test anyway` only skips the quiet check, on its screen or on the loudness interruption."
    }
  }

  /// `2 s`, or `1.5 s`.
  public static func seconds(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000
      + duration.components.attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0
      ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
  }
}
