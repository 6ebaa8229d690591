// sd-bus, systemd's D-Bus client library (libsystemd, Debian's libsystemd0, headers in
// libsystemd-dev), through a table of its functions filled when the session bus is first
// needed, as CLibSecret's shim.h does for libsecret: `app --help`, or a command refused at
// once, never loads it. Its own header declares every type and function; the table only
// names the functions the app calls (`SessionBusConnection`, `SecretServiceQuestions`).
#ifndef APP_CSYSTEMDBUS_SHIM_H
#define APP_CSYSTEMDBUS_SHIM_H

#include <systemd/sd-bus.h>

#include "../LoadedLibrary/loaded_library.h"

#define APP_BUS_FUNCTIONS(X)          \
  X(sd_bus_new)                       \
  X(sd_bus_set_address)               \
  X(sd_bus_set_bus_client)            \
  X(sd_bus_start)                     \
  X(sd_bus_open_user)                 \
  X(sd_bus_close_unref)               \
  X(sd_bus_is_ready)                  \
  X(sd_bus_get_fd)                    \
  X(sd_bus_get_events)                \
  X(sd_bus_get_timeout)               \
  X(sd_bus_process)                   \
  X(sd_bus_call_async)                \
  X(sd_bus_slot_unref)                \
  X(sd_bus_message_new_method_call)   \
  X(sd_bus_message_append_basic)      \
  X(sd_bus_message_open_container)    \
  X(sd_bus_message_close_container)   \
  X(sd_bus_message_ref)               \
  X(sd_bus_message_unref)             \
  X(sd_bus_message_get_signature)     \
  X(sd_bus_message_get_error)         \
  X(sd_bus_message_is_method_error)   \
  X(sd_bus_message_read_basic)        \
  X(sd_bus_message_enter_container)   \
  X(sd_bus_message_exit_container)    \
  X(sd_bus_message_at_end)

// sd-bus's functions, once loaded: `AppBusLibrary` and `app_bus_library(&error)`.
APP_LOADED_LIBRARY(AppBusLibrary, app_bus, "libsystemd.so.0", APP_BUS_FUNCTIONS)

// Where the reply handler of `sd_bus_call_async` leaves the reply: the table comes with it,
// because Swift compiles a header's inline functions, with their statics, into each file that
// calls them (`app_bus_state` read here could be another, empty copy).
typedef struct {
  const AppBusLibrary *library;
  sd_bus_message *reply;
} AppBusReplySlot;

// The reply handler: keeps a reference to the reply (or to the error that sd-bus makes up
// when the call times out or the connection drops). A C function, because Swift closures
// that capture cannot be C function pointers.
static inline int app_bus_keep_reply(sd_bus_message *reply, void *userdata,
                                     sd_bus_error *error) {
  (void)error;
  AppBusReplySlot *slot = (AppBusReplySlot *)userdata;
  slot->reply = slot->library->sd_bus_message_ref(reply);
  return 1;
}

static inline sd_bus_message_handler_t app_bus_reply_keeper(void) { return app_bus_keep_reply; }

#endif
