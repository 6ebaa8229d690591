// libdbus-1, the reference D-Bus library (Debian's libdbus-1-3, headers in libdbus-1-dev),
// for SessionBusBenchmark's comparison with sd-bus: loaded at run time, as the app loads
// sd-bus, so that both are measured with their loading. Declared by its own headers.
#ifndef APP_CDBUS_SHIM_H
#define APP_CDBUS_SHIM_H

#include <dbus/dbus.h>
#include <dlfcn.h>

#define APP_DBUS_FUNCTIONS(X)                 \
  X(dbus_error_init)                          \
  X(dbus_error_free)                          \
  X(dbus_error_is_set)                        \
  X(dbus_bus_get_private)                     \
  X(dbus_connection_set_exit_on_disconnect)   \
  X(dbus_connection_close)                    \
  X(dbus_connection_unref)                    \
  X(dbus_connection_send_with_reply_and_block) \
  X(dbus_message_new_method_call)             \
  X(dbus_message_unref)                       \
  X(dbus_message_iter_init)                   \
  X(dbus_message_iter_init_append)            \
  X(dbus_message_iter_append_basic)           \
  X(dbus_message_iter_open_container)         \
  X(dbus_message_iter_close_container)        \
  X(dbus_message_iter_get_arg_type)           \
  X(dbus_message_iter_recurse)                \
  X(dbus_message_iter_get_basic)              \
  X(dbus_message_iter_next)

#define APP_DBUS_MEMBER(name) __typeof__(name) *_Nonnull name;

typedef struct {
  APP_DBUS_FUNCTIONS(APP_DBUS_MEMBER)
} AppDBusLibrary;

// The table, loaded from libdbus-1.so.3 at the first call; NULL when it could not be.
// Called from one Swift file only (SessionBusBenchmark's LibdbusQuestions.swift): each file that calls an
// inline function gets its own copy of its statics.
static inline const AppDBusLibrary *app_dbus_library(void) {
  static AppDBusLibrary table;
  static int loaded = 0;
  if (loaded) return &table;
  void *handle = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) return NULL;
#define APP_DBUS_LOOK_UP(name)                          \
  *(void **)&table.name = dlsym(handle, #name);        \
  if (table.name == NULL) return NULL;
  APP_DBUS_FUNCTIONS(APP_DBUS_LOOK_UP)
#undef APP_DBUS_LOOK_UP
  loaded = 1;
  return &table;
}

#endif
