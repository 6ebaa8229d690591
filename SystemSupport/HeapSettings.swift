import CMalloc

/// How glibc's malloc serves the process, set once at the start of `main`, for the commands
/// whose heap grows large (the App's `HeapUse`): for a command of a few milliseconds, the
/// settings cost more start-up than they save.
///
/// Everybody's messages is a few hundred megabytes of heap, allocated on two threads at
/// once (decoding and rendering each take half the people on a helper): the answer, its
/// unescaped body, the parsed tape and a million strings. Each thread keeps glibc's arena
/// of its own: one arena shared by both made them wait on its lock, a futex and a thread
/// switch at a time. The main heap grows 64 MiB at a time; only address space is taken
/// ahead, memory is resident once written. docs/decisions/ has what each setting saves,
/// measured against the defaults.
public enum HeapSettings {
  public static func apply() {
    mallopt(M_TOP_PAD, 64 << 20)
    // Large blocks from the heap as well, not from `mmap`: a freed block of megabytes is
    // then reused, already resident, by the next one. Sending a message of 10 MB copies it
    // some eight times (read, encoded, decoded, stored, read back, answered); each copy in
    // fresh `mmap` memory was 2,500 page faults.
    mallopt(M_MMAP_THRESHOLD, 1 << 30)
    mallopt(M_TRIM_THRESHOLD, 1 << 30)
  }
}
