// A shared library loaded when first needed (dlopen), and a table of its functions (dlsym),
// for the shims of libraries the app does not link (CLibSecret, CSystemdBus): a command that
// never needs them starts without their relocations and constructors.
//
//   #define APP_X_FUNCTIONS(X) X(function_one) X(function_two)
//   APP_LOADED_LIBRARY(AppXLibrary, app_x, "libx.so.1", APP_X_FUNCTIONS)
//
// declares `AppXLibrary`, a struct with a member per function typed by its declaration in
// the library's own header, and `app_x_library(&error)`, which loads the library once per
// process (any thread may call it) and returns the table, or NULL with `error` saying why.
//
// The state lives in statics inside the functions, not at file scope: Swift emits a header's
// inline functions, with their statics, into each Swift file that calls them, and a header's
// file-scope variables nowhere. So each table is loaded from one Swift file, and helpers that
// need it take it as an argument.
#ifndef APP_LOADED_LIBRARY_H
#define APP_LOADED_LIBRARY_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Fills `slots`, `count` function pointers in the order of `names`, from `file`. Returns
// NULL, or why it could not (allocated once, kept for the process).
static inline const char *app_fill_table(const char *file, const char *const *names,
                                         size_t count, void **slots) {
  // RTLD_LOCAL: the functions are found through this handle, which also searches the
  // libraries the library brings in. Never closed: GLib, for one, cannot be unloaded.
  void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
  // dlerror's text lives until the thread's next dl call: keep a copy.
  if (handle == NULL) return strdup(dlerror());
  for (size_t index = 0; index < count; index++) {
    slots[index] = dlsym(handle, names[index]);
    if (slots[index] == NULL) {
      char *reason = NULL;
      if (asprintf(&reason, "%s has no %s", file, names[index]) < 0) return "a lookup failed";
      return reason;
    }
  }
  return NULL;
}

#define APP_LOADED_MEMBER(name) __typeof__(name) *_Nonnull name;
#define APP_LOADED_NAME(name) #name,

#define APP_LOADED_LIBRARY(Table, prefix, file, FUNCTIONS)                                    \
  typedef struct {                                                                          \
    FUNCTIONS(APP_LOADED_MEMBER)                                                            \
  } Table;                                                                                  \
                                                                                            \
  typedef struct {                                                                          \
    Table table;                                                                            \
    const char *error;                                                                      \
  } Table##State;                                                                           \
                                                                                            \
  static inline Table##State *prefix##_state(void) {                                        \
    static Table##State state;                                                              \
    return &state;                                                                          \
  }                                                                                         \
                                                                                            \
  static inline void prefix##_load(void) {                                                  \
    static const char *const names[] = {FUNCTIONS(APP_LOADED_NAME)};                        \
    _Static_assert(sizeof(Table) == sizeof(names) / sizeof(*names) * sizeof(void *),        \
                   "a table is its functions' pointers, in order");                         \
    prefix##_state()->error = app_fill_table(file, names, sizeof(names) / sizeof(*names),   \
                                             (void **)&prefix##_state()->table);            \
  }                                                                                         \
                                                                                            \
  static inline const Table *prefix##_library(const char *_Nullable *_Nonnull error) {      \
    static pthread_once_t once = PTHREAD_ONCE_INIT;                                         \
    pthread_once(&once, prefix##_load);                                                     \
    if (prefix##_state()->error != NULL) {                                                  \
      *error = prefix##_state()->error;                                                     \
      return NULL;                                                                          \
    }                                                                                       \
    return &prefix##_state()->table;                                                        \
  }

#endif
