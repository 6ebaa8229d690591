// Helpers for calling libsecret from Swift, and the table through which every libsecret
// and GLib function is called.
//
// Swift cannot call C variadic functions or build C arrays of structs comfortably, so the
// schema and the attribute tables are made here, and Swift calls only the functions that
// take a GHashTable.
//
// libsecret is loaded when the keyring is first needed (`app_secret_library`), not linked:
// with GIO, GLib and libgcrypt it is a dozen shared libraries, about 2 ms of every start
// for their relocations and constructors, which `app --help` or a command refused at once
// never needs. Nothing here or in Swift calls a libsecret, GObject, GIO or GLib function
// other than through the table; a test checks that `--help` loads none of their libraries.
//
// Nor are their headers included: the few types the calls need are declared below, as
// GLib 2 and libsecret 1 define them (both keep their ABI stable within a major version).
// With the headers came pkg-config, which links the libraries into every executable, and
// folders of headers that Swift's tools would each need to be told.
#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

// MARK: GLib's, GIO's and libsecret's types, as far as the app uses them

typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef gint gboolean;
typedef size_t gsize;
typedef ptrdiff_t gssize;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef gsize GType;
typedef uint32_t GQuark;

typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);

typedef struct {
  GQuark domain;
  gint code;
  gchar *message;
} GError;

typedef struct _GList GList;
struct _GList {
  gpointer data;
  GList *next;
  GList *prev;
};

typedef struct {
  gpointer *pdata;
  guint len;
} GPtrArray;

// Stack space for GLib's iterator and builder, whose fields are GLib's own.
typedef struct {
  gpointer dummy1, dummy2, dummy3;
  int dummy4;
  gboolean dummy5;
  gpointer dummy6;
} GHashTableIter;

typedef struct {
  gsize x[16];
} GVariantBuilder;

typedef struct _GHashTable GHashTable;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;  // a type string, such as "a{ss}", cast
typedef struct _GCancellable GCancellable;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _SecretService SecretService;
typedef struct _SecretValue SecretValue;
typedef struct _SecretRetrievable SecretRetrievable;

typedef enum { G_BUS_TYPE_SESSION = 2 } GBusType;
typedef enum { G_DBUS_CALL_FLAGS_NONE = 0 } GDBusCallFlags;
typedef enum { SECRET_SERVICE_NONE = 0 } SecretServiceFlags;
typedef enum { SECRET_SEARCH_ALL = 1 << 1, SECRET_SEARCH_UNLOCK = 1 << 2 } SecretSearchFlags;
typedef enum { SECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1 } SecretSchemaFlags;
typedef enum { SECRET_SCHEMA_ATTRIBUTE_STRING = 0 } SecretSchemaAttributeType;

typedef struct {
  const gchar *name;
  SecretSchemaAttributeType type;
} SecretSchemaAttribute;

typedef struct {
  const gchar *name;
  SecretSchemaFlags flags;
  SecretSchemaAttribute attributes[32];
  gint reserved;
  gpointer reserved1, reserved2, reserved3, reserved4, reserved5, reserved6, reserved7;
} SecretSchema;

// MARK: The functions

// The functions looked up, as X(name, return type, parameter types…).
#define APP_SECRET_FUNCTIONS(X)                                                                 \
  X(secret_service_get_type, GType, void)                                                       \
  X(secret_service_get_sync, SecretService *, SecretServiceFlags, GCancellable *, GError **)    \
  X(secret_service_open_sync, SecretService *, GType, const gchar *, SecretServiceFlags,        \
    GCancellable *, GError **)                                                                  \
  X(secret_service_search_sync, GList *, SecretService *, const SecretSchema *, GHashTable *,   \
    SecretSearchFlags, GCancellable *, GError **)                                               \
  X(secret_service_lookup_sync, SecretValue *, SecretService *, const SecretSchema *,           \
    GHashTable *, GCancellable *, GError **)                                                    \
  X(secret_service_store_sync, gboolean, SecretService *, const SecretSchema *, GHashTable *,   \
    const gchar *, const gchar *, SecretValue *, GCancellable *, GError **)                     \
  X(secret_service_clear_sync, gboolean, SecretService *, const SecretSchema *, GHashTable *,   \
    GCancellable *, GError **)                                                                  \
  X(secret_retrievable_get_attributes, GHashTable *, SecretRetrievable *)                       \
  X(secret_value_new, SecretValue *, const gchar *, gssize, const gchar *)                      \
  X(secret_value_get_text, const gchar *, SecretValue *)                                        \
  X(secret_value_unref, void, gpointer)                                                         \
  X(g_object_ref, gpointer, gpointer)                                                           \
  X(g_object_unref, void, gpointer)                                                             \
  X(g_cancellable_new, GCancellable *, void)                                                    \
  X(g_cancellable_cancel, void, GCancellable *)                                                 \
  X(g_error_free, void, GError *)                                                               \
  X(g_free, void, gpointer)                                                                     \
  X(g_strdup, gchar *, const gchar *)                                                           \
  X(g_strfreev, void, gchar **)                                                                 \
  X(g_str_hash, guint, gconstpointer)                                                           \
  X(g_str_equal, gboolean, gconstpointer, gconstpointer)                                        \
  X(g_list_free_full, void, GList *, GDestroyNotify)                                            \
  X(g_hash_table_new_full, GHashTable *, GHashFunc, GEqualFunc, GDestroyNotify, GDestroyNotify) \
  X(g_hash_table_insert, gboolean, GHashTable *, gpointer, gpointer)                            \
  X(g_hash_table_lookup, gpointer, GHashTable *, gconstpointer)                                 \
  X(g_hash_table_unref, void, GHashTable *)                                                     \
  X(g_hash_table_iter_init, void, GHashTableIter *, GHashTable *)                               \
  X(g_hash_table_iter_next, gboolean, GHashTableIter *, gpointer *, gpointer *)                 \
  X(g_ptr_array_new_with_free_func, GPtrArray *, GDestroyNotify)                                \
  X(g_ptr_array_add, void, GPtrArray *, gpointer)                                               \
  X(g_ptr_array_free, gpointer *, GPtrArray *, gboolean)                                        \
  X(g_bus_get_sync, GDBusConnection *, GBusType, GCancellable *, GError **)                     \
  X(g_dbus_connection_is_closed, gboolean, GDBusConnection *)                                   \
  X(g_dbus_connection_call_sync, GVariant *, GDBusConnection *, const gchar *, const gchar *,   \
    const gchar *, const gchar *, GVariant *, const GVariantType *, GDBusCallFlags, gint,       \
    GCancellable *, GError **)                                                                  \
  X(g_variant_builder_init, void, GVariantBuilder *, const GVariantType *)                      \
  X(g_variant_builder_add, void, GVariantBuilder *, const gchar *, ...)                         \
  X(g_variant_new, GVariant *, const gchar *, ...)                                              \
  X(g_variant_get, void, GVariant *, const gchar *, ...)                                        \
  X(g_variant_get_child, void, GVariant *, gsize, const gchar *, ...)                           \
  X(g_variant_get_child_value, GVariant *, GVariant *, gsize)                                   \
  X(g_variant_n_children, gsize, GVariant *)                                                    \
  X(g_variant_is_of_type, gboolean, GVariant *, const GVariantType *)                           \
  X(g_variant_lookup, gboolean, GVariant *, const gchar *, const gchar *, ...)                  \
  X(g_variant_unref, void, GVariant *)

#define APP_SECRET_MEMBER(name, result, ...) result (*_Nonnull name)(__VA_ARGS__);

// libsecret's and GLib's functions, once loaded.
typedef struct {
  APP_SECRET_FUNCTIONS(APP_SECRET_MEMBER)
} AppSecretLibrary;

#define APP_SECRET_LIBRARY_FILE "libsecret-1.so.0"

// The table and why it could not be filled, if it could not. Statics inside a function
// rather than at file scope: Swift emits a header's inline functions, with their statics,
// into the module that calls them, but not a header's file-scope variables.
typedef struct {
  AppSecretLibrary table;
  const char *error;
} AppSecretState;

static inline AppSecretState *app_secret_state(void) {
  static AppSecretState state;
  return &state;
}

static inline void app_secret_load(void) {
  AppSecretState *state = app_secret_state();
  // RTLD_LOCAL: the functions are found through this handle, which also searches the
  // libraries libsecret brings in (GIO, GObject, GLib). Never closed: GLib cannot be unloaded.
  void *handle = dlopen(APP_SECRET_LIBRARY_FILE, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    // dlerror's text lives until the thread's next dl call: keep a copy.
    state->error = strdup(dlerror());
    return;
  }
#define APP_SECRET_LOOK_UP(name, result, ...)                  \
  *(void **)&state->table.name = dlsym(handle, #name);        \
  if (state->table.name == NULL) {                             \
    state->error = APP_SECRET_LIBRARY_FILE " has no " #name;   \
    return;                                                    \
  }
  APP_SECRET_FUNCTIONS(APP_SECRET_LOOK_UP)
#undef APP_SECRET_LOOK_UP
}

// The loaded table, or NULL with `error` set to why libsecret could not be loaded. Loads
// once per process; any thread may call it.
static inline const AppSecretLibrary *app_secret_library(const char *_Nullable *_Nonnull error) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, app_secret_load);
  AppSecretState *state = app_secret_state();
  if (state->error != NULL) {
    *error = state->error;
    return NULL;
  }
  return &state->table;
}

// The table, for the helpers below: only called once `app_secret_library` succeeded.
#define APP_G (&app_secret_state()->table)

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
static inline GHashTable *app_attributes_new(void) {
  return APP_G->g_hash_table_new_full(APP_G->g_str_hash, APP_G->g_str_equal, APP_G->g_free,
                                      APP_G->g_free);
}

static inline void app_attributes_set(GHashTable *table, const char *key, const char *value) {
  APP_G->g_hash_table_insert(table, APP_G->g_strdup(key), APP_G->g_strdup(value));
}

// The value of one attribute of a search result, newly allocated (g_free it), or NULL.
static inline char *app_retrievable_copy_attribute(SecretRetrievable *item, const char *key) {
  GHashTable *attributes = APP_G->secret_retrievable_get_attributes(item);
  if (attributes == NULL) return NULL;
  const char *value = APP_G->g_hash_table_lookup(attributes, key);
  char *copy = APP_G->g_strdup(value);
  APP_G->g_hash_table_unref(attributes);
  return copy;
}

static inline SecretRetrievable *app_list_retrievable(GList *node) {
  return (SecretRetrievable *)node->data;
}

static inline void app_list_free_retrievables(GList *list) {
  APP_G->g_list_free_full(list, APP_G->g_object_unref);
}

// A SecretService of the caller's own (g_object_unref it), connected now, rather than
// libsecret's process-wide one: see SecretServiceClient's `runReconnecting`.
static inline SecretService *app_private_service(GCancellable *cancellable, GError **error) {
  return APP_G->secret_service_open_sync(APP_G->secret_service_get_type(), NULL,
                                         SECRET_SERVICE_NONE, cancellable, error);
}

static inline SecretSearchFlags app_search_all_unlocking(void) {
  return (SecretSearchFlags)(SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK);
}

// The process's shared session-bus connection, which libsecret uses too. One reference is
// kept: GIO holds the shared connection only weakly, so releasing the last reference would
// close it and make libsecret's next call connect again. A closed one is replaced. The
// caller gets a reference of its own (g_object_unref it).
static inline GDBusConnection *app_session_bus(GCancellable *cancellable, GError **error) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  static GDBusConnection *bus = NULL;
  pthread_mutex_lock(&lock);
  if (bus != NULL && APP_G->g_dbus_connection_is_closed(bus)) {
    APP_G->g_object_unref(bus);
    bus = NULL;
  }
  if (bus == NULL) bus = APP_G->g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, error);
  GDBusConnection *connection = bus != NULL ? APP_G->g_object_ref(bus) : NULL;
  pthread_mutex_unlock(&lock);
  return connection;
}

// The `account` attributes of the unlocked items whose attributes include `attributes`,
// asked of the Secret Service over D-Bus directly: `SearchItems`, then one property read per
// item. libsecret's search does the same in 16 messages (it builds proxies, watches the
// service's name and asks to unlock), about 2.5 ms more on every start. Items that are
// locked are only counted (`locked_count`): unlocking needs libsecret's prompt. Returns a
// NULL-terminated array (g_strfreev it), or NULL with `error` set.
static inline gchar **app_unlocked_accounts(GHashTable *attributes, GCancellable *cancellable,
                                           guint *locked_count, GError **error) {
  GDBusConnection *bus = app_session_bus(cancellable, error);
  if (bus == NULL) return NULL;
  GVariantBuilder pattern;
  APP_G->g_variant_builder_init(&pattern, (const GVariantType *)"a{ss}");
  GHashTableIter iter;
  gpointer key, value;
  APP_G->g_hash_table_iter_init(&iter, attributes);
  while (APP_G->g_hash_table_iter_next(&iter, &key, &value)) {
    APP_G->g_variant_builder_add(&pattern, "{ss}", (const char *)key, (const char *)value);
  }
  GVariant *found = APP_G->g_dbus_connection_call_sync(
      bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
      "org.freedesktop.Secret.Service", "SearchItems", APP_G->g_variant_new("(a{ss})", &pattern),
      (const GVariantType *)"(aoao)", G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
  if (found == NULL) {
    APP_G->g_object_unref(bus);
    return NULL;
  }
  GVariant *unlocked = APP_G->g_variant_get_child_value(found, 0);
  GVariant *locked = APP_G->g_variant_get_child_value(found, 1);
  *locked_count = (guint)APP_G->g_variant_n_children(locked);
  GPtrArray *accounts = APP_G->g_ptr_array_new_with_free_func(APP_G->g_free);
  gsize count = APP_G->g_variant_n_children(unlocked);
  for (gsize index = 0; index < count; index++) {
    const char *path = NULL;
    APP_G->g_variant_get_child(unlocked, index, "&o", &path);
    GVariant *answer = APP_G->g_dbus_connection_call_sync(
        bus, "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get",
        APP_G->g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
        (const GVariantType *)"(v)", G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
    if (answer == NULL) {
      APP_G->g_ptr_array_free(accounts, 1 /* its strings too */);
      accounts = NULL;
      break;
    }
    GVariant *item_attributes = NULL;
    APP_G->g_variant_get(answer, "(v)", &item_attributes);
    const char *account = NULL;
    if (APP_G->g_variant_is_of_type(item_attributes, (const GVariantType *)"a{ss}") &&
        APP_G->g_variant_lookup(item_attributes, "account", "&s", &account)) {
      APP_G->g_ptr_array_add(accounts, APP_G->g_strdup(account));
    }
    APP_G->g_variant_unref(item_attributes);
    APP_G->g_variant_unref(answer);
  }
  APP_G->g_variant_unref(unlocked);
  APP_G->g_variant_unref(locked);
  APP_G->g_variant_unref(found);
  APP_G->g_object_unref(bus);
  if (accounts == NULL) return NULL;
  APP_G->g_ptr_array_add(accounts, NULL);
  return (gchar **)APP_G->g_ptr_array_free(accounts, 0 /* keep its strings */);
}

// Whether a Secret Service answers on the session bus: its name has an owner, or D-Bus can
// start one. 0 when there is no session bus at all (over SSH, on a headless machine) or
// nothing provides the name, with no error: that is an answer, and the app then keeps its
// session in the kernel keyring. Two messages to the bus daemon; the keyring is not asked.
static inline gboolean app_secret_service_answers(GCancellable *cancellable) {
  GError *error = NULL;
  GDBusConnection *bus = app_session_bus(cancellable, &error);
  if (bus == NULL) {
    APP_G->g_error_free(error);
    return 0;
  }
  gboolean answers = 0;
  GVariant *owned = APP_G->g_dbus_connection_call_sync(
      bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
      "NameHasOwner", APP_G->g_variant_new("(s)", "org.freedesktop.secrets"),
      (const GVariantType *)"(b)", G_DBUS_CALL_FLAGS_NONE, -1, cancellable, &error);
  if (owned != NULL) {
    APP_G->g_variant_get(owned, "(b)", &answers);
    APP_G->g_variant_unref(owned);
  } else {
    APP_G->g_error_free(error);
    error = NULL;
  }
  if (!answers) {
    GVariant *activatable = APP_G->g_dbus_connection_call_sync(
        bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
        "ListActivatableNames", NULL, (const GVariantType *)"(as)", G_DBUS_CALL_FLAGS_NONE, -1,
        cancellable, &error);
    if (activatable != NULL) {
      GVariant *names = APP_G->g_variant_get_child_value(activatable, 0);
      gsize count = APP_G->g_variant_n_children(names);
      for (gsize index = 0; index < count && !answers; index++) {
        const char *name = NULL;
        APP_G->g_variant_get_child(names, index, "&s", &name);
        answers = name != NULL && strcmp(name, "org.freedesktop.secrets") == 0;
      }
      APP_G->g_variant_unref(names);
      APP_G->g_variant_unref(activatable);
    } else {
      APP_G->g_error_free(error);
    }
  }
  APP_G->g_object_unref(bus);
  return answers;
}

#endif
