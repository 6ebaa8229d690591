import CMalloc

/// How glibc's malloc serves the process, set once at the start of `main`, before any
/// other thread allocates, for the commands whose heap grows large (the App's `HeapUse`):
/// for a command of a few milliseconds, a shared heap is slower to start.
///
/// Everybody's messages is a few hundred megabytes of heap, allocated on a worker thread:
/// the answer, its unescaped body, the parsed tape and a million strings. By default glibc
/// gives such a thread an arena of its own and grows it a few pages at a time, one
/// `mprotect` call per growth, a visible part of `app messages` in a profile. Here every
/// thread shares the main heap, which grows 64 MiB at a time; only address space is taken
/// ahead, memory is resident once written, as before. docs/decisions.md has what it saves,
/// measured against the defaults.
public enum HeapSettings {
  public static func apply() {
    mallopt(M_ARENA_MAX, 1)
    mallopt(M_TOP_PAD, 64 << 20)
    // Large blocks from the heap as well, not from `mmap`: a freed block of megabytes is
    // then reused, already resident, by the next one. Sending a message of 10 MB copies it
    // some eight times (read, encoded, decoded, stored, read back, answered); each copy in
    // fresh `mmap` memory was 2,500 page faults.
    mallopt(M_MMAP_THRESHOLD, 1 << 30)
    mallopt(M_TRIM_THRESHOLD, 1 << 30)
  }
}
