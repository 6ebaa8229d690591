// libsecret, loaded when the keyring is first needed, and the helpers Swift calls it
// through.
//
// libsecret is loaded at run time (`app_secret_library`, LoadedLibrary/loaded_library.h),
// not linked: with GIO, GLib and
// libgcrypt it is a dozen shared libraries, about 2 ms of every start for their relocations
// and constructors, which `app --help` or a command refused at once never needs. Nothing here
// or in Swift calls a libsecret, GObject, GIO or GLib function other than through the table;
// a test checks that `--help` loads none of their libraries.
//
// Its types and functions are declared by its own headers (Debian's libsecret-1-dev): the
// table's members take their types from the declarations (`__typeof__`). The headers come
// without pkg-config, which would link the libraries into every executable: Package.swift
// gives the Keyring target their folders (`libsecretHeaders`).
//
// Swift cannot call C variadic functions or build C arrays of structs comfortably, so the
// schema and the attribute tables are made here. The helpers call the table's functions in
// parentheses, `(APP_G->g_object_ref)(…)`: GLib defines some of their names as macros too.
#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H

// Only the Keyring target sees the declarations below: it defines APP_KEYRING_IMPLEMENTATION
// and has libsecret's headers' folders (Package.swift's `libsecretHeaders`). A module that
// imports Keyring loads this module too (Swift hands on a module's internal imports when it
// is built without library evolution), and finds it empty: it needs none of it, nor the
// folders, which neither it nor DocC's symbol extraction is given.
#ifdef APP_KEYRING_IMPLEMENTATION

#include <libsecret/secret.h>
#include <pthread.h>

#include "../LoadedLibrary/loaded_library.h"

// The functions looked up.
#define APP_SECRET_FUNCTIONS(X)       \
  X(secret_service_get_type)          \
  X(secret_service_get_sync)          \
  X(secret_service_open_sync)         \
  X(secret_service_search_sync)       \
  X(secret_service_lookup_sync)       \
  X(secret_service_store_sync)        \
  X(secret_service_clear_sync)        \
  X(secret_retrievable_get_attributes) \
  X(secret_value_new)                 \
  X(secret_value_get_text)            \
  X(secret_value_unref)               \
  X(g_object_ref)                     \
  X(g_object_unref)                   \
  X(g_cancellable_new)                \
  X(g_cancellable_cancel)             \
  X(g_error_free)                     \
  X(g_free)                           \
  X(g_strdup)                         \
  X(g_str_hash)                       \
  X(g_str_equal)                      \
  X(g_list_free_full)                 \
  X(g_hash_table_new_full)            \
  X(g_hash_table_insert)              \
  X(g_hash_table_lookup)              \
  X(g_hash_table_unref)               \
  X(g_bus_get_sync)                   \
  X(g_dbus_connection_is_closed)

// libsecret's and GLib's functions, once loaded: `AppSecretLibrary` and
// `app_secret_library(&error)`.
APP_LOADED_LIBRARY(AppSecretLibrary, app_secret, "libsecret-1.so.0", APP_SECRET_FUNCTIONS)

// The helpers below take the loaded table (`g`) rather than reading `app_secret_state`:
// Swift compiles a header's inline functions, with their statics, into each file that calls
// them, so a state read from another Swift file than the loader's would be another, empty
// copy.
#define APP_G g

// The schema of the app's session items. SECRET_SCHEMA_DONT_MATCH_NAME lets
// `secret-tool search service app` find the items by their attributes alone.
static inline const SecretSchema *app_session_schema(void) {
  static const SecretSchema schema = {
    "org.cleanarchitecture.app.Session",
    SECRET_SCHEMA_DONT_MATCH_NAME,
    {
      { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "account", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };
  return &schema;
}

// A string-to-string table that owns copies of its keys and values.
static inline GHashTable *app_attributes_new(const AppSecretLibrary *g) {
  return (APP_G->g_hash_table_new_full)(APP_G->g_str_hash, APP_G->g_str_equal, APP_G->g_free,
                                        APP_G->g_free);
}

static inline void app_attributes_set(const AppSecretLibrary *g, GHashTable *table,
                                      const char *key, const char *value) {
  (APP_G->g_hash_table_insert)(table, (APP_G->g_strdup)(key), (APP_G->g_strdup)(value));
}

// The value of one attribute of a search result, newly allocated (g_free it), or NULL.
static inline char *app_retrievable_copy_attribute(const AppSecretLibrary *g,
                                                   SecretRetrievable *item, const char *key) {
  GHashTable *attributes = (APP_G->secret_retrievable_get_attributes)(item);
  if (attributes == NULL) return NULL;
  const char *value = (APP_G->g_hash_table_lookup)(attributes, key);
  char *copy = (APP_G->g_strdup)(value);
  (APP_G->g_hash_table_unref)(attributes);
  return copy;
}

static inline SecretRetrievable *app_list_retrievable(GList *node) {
  return (SecretRetrievable *)node->data;
}

static inline void app_list_free_retrievables(const AppSecretLibrary *g, GList *list) {
  (APP_G->g_list_free_full)(list, APP_G->g_object_unref);
}

// A SecretService of the caller's own (g_object_unref it), connected now, rather than
// libsecret's process-wide one: see SecretServiceKeyring's `runReconnecting`.
static inline SecretService *app_private_service(const AppSecretLibrary *g,
                                                GCancellable *cancellable, GError **error) {
  return (SecretService *)(APP_G->secret_service_open_sync)(
      (APP_G->secret_service_get_type)(), NULL, SECRET_SERVICE_NONE, cancellable, error);
}

static inline SecretSearchFlags app_search_all_unlocking(void) {
  return (SecretSearchFlags)(SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK);
}

// The process's shared session-bus connection, which libsecret uses too. One reference is
// kept: GIO holds the shared connection only weakly, so releasing the last reference would
// close it and make libsecret's next call connect again. A closed one is replaced. The
// caller gets a reference of its own (g_object_unref it). Called from one Swift file only
// (SecretServiceWarmUp.swift), so that there is one kept connection.
static inline GDBusConnection *app_session_bus(const AppSecretLibrary *g,
                                               GCancellable *cancellable, GError **error) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static GDBusConnection *bus = NULL;
  pthread_mutex_lock(&lock);
  if (bus != NULL && (APP_G->g_dbus_connection_is_closed)(bus)) {
    (APP_G->g_object_unref)(bus);
    bus = NULL;
  }
  if (bus == NULL) bus = (APP_G->g_bus_get_sync)(G_BUS_TYPE_SESSION, cancellable, error);
  GDBusConnection *connection = bus != NULL ? (APP_G->g_object_ref)(bus) : NULL;
  pthread_mutex_unlock(&lock);
  return connection;
}

#endif  // APP_KEYRING_IMPLEMENTATION

#endif
