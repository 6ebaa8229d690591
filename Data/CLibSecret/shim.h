// Helpers for calling libsecret from Swift.
//
// Swift cannot call C variadic functions or build C arrays of structs comfortably, so the
// schema and the attribute tables are made here, and Swift calls only the `v` variants
// (secret_password_storev_sync, …) that take a GHashTable.
#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H

#include <libsecret/secret.h>

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
  return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
}

static inline void app_attributes_set(GHashTable *table, const char *key, const char *value) {
  g_hash_table_insert(table, g_strdup(key), g_strdup(value));
}

// The value of one attribute of a search result, newly allocated (g_free it), or NULL.
static inline char *app_retrievable_copy_attribute(SecretRetrievable *item, const char *key) {
  GHashTable *attributes = secret_retrievable_get_attributes(item);
  if (attributes == NULL) return NULL;
  const char *value = g_hash_table_lookup(attributes, key);
  char *copy = g_strdup(value);
  g_hash_table_unref(attributes);
  return copy;
}

static inline SecretRetrievable *app_list_retrievable(GList *node) {
  return SECRET_RETRIEVABLE(node->data);
}

static inline void app_list_free_retrievables(GList *list) {
  g_list_free_full(list, g_object_unref);
}

// A SecretService of the caller's own (g_object_unref it), connected now, rather than
// libsecret's process-wide one: see SecretServiceClient's `runReconnecting`.
static inline SecretService *app_private_service(GCancellable *cancellable, GError **error) {
  return secret_service_open_sync(SECRET_TYPE_SERVICE, NULL, SECRET_SERVICE_NONE, cancellable,
                                  error);
}

static inline SecretSearchFlags app_search_all_unlocking(void) {
  return SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK;
}

// The process's shared session-bus connection, which libsecret uses too. One reference is
// kept: GIO holds the shared connection only weakly, so releasing the last reference would
// close it and make libsecret's next call connect again. A closed one is replaced. The
// caller gets a reference of its own (g_object_unref it).
static inline GDBusConnection *app_session_bus(GCancellable *cancellable, GError **error) {
  static GMutex lock;
  static GDBusConnection *bus = NULL;
  g_mutex_lock(&lock);
  if (bus != NULL && g_dbus_connection_is_closed(bus)) g_clear_object(&bus);
  if (bus == NULL) bus = g_bus_get_sync(G_BUS_TYPE_SESSION, cancellable, error);
  GDBusConnection *connection = bus != NULL ? g_object_ref(bus) : NULL;
  g_mutex_unlock(&lock);
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
  g_variant_builder_init(&pattern, G_VARIANT_TYPE("a{ss}"));
  GHashTableIter iter;
  gpointer key, value;
  g_hash_table_iter_init(&iter, attributes);
  while (g_hash_table_iter_next(&iter, &key, &value)) {
    g_variant_builder_add(&pattern, "{ss}", (const char *)key, (const char *)value);
  }
  GVariant *found = g_dbus_connection_call_sync(
      bus, "org.freedesktop.secrets", "/org/freedesktop/secrets",
      "org.freedesktop.Secret.Service", "SearchItems", g_variant_new("(a{ss})", &pattern),
      G_VARIANT_TYPE("(aoao)"), G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
  if (found == NULL) {
    g_object_unref(bus);
    return NULL;
  }
  GVariant *unlocked = g_variant_get_child_value(found, 0);
  GVariant *locked = g_variant_get_child_value(found, 1);
  *locked_count = (guint)g_variant_n_children(locked);
  GPtrArray *accounts = g_ptr_array_new_with_free_func(g_free);
  gsize count = g_variant_n_children(unlocked);
  for (gsize index = 0; index < count; index++) {
    const char *path = NULL;
    g_variant_get_child(unlocked, index, "&o", &path);
    GVariant *answer = g_dbus_connection_call_sync(
        bus, "org.freedesktop.secrets", path, "org.freedesktop.DBus.Properties", "Get",
        g_variant_new("(ss)", "org.freedesktop.Secret.Item", "Attributes"),
        G_VARIANT_TYPE("(v)"), G_DBUS_CALL_FLAGS_NONE, -1, cancellable, error);
    if (answer == NULL) {
      g_ptr_array_free(accounts, TRUE);
      accounts = NULL;
      break;
    }
    GVariant *item_attributes = NULL;
    g_variant_get(answer, "(v)", &item_attributes);
    const char *account = NULL;
    if (g_variant_is_of_type(item_attributes, G_VARIANT_TYPE("a{ss}")) &&
        g_variant_lookup(item_attributes, "account", "&s", &account)) {
      g_ptr_array_add(accounts, g_strdup(account));
    }
    g_variant_unref(item_attributes);
    g_variant_unref(answer);
  }
  g_variant_unref(unlocked);
  g_variant_unref(locked);
  g_variant_unref(found);
  g_object_unref(bus);
  if (accounts == NULL) return NULL;
  g_ptr_array_add(accounts, NULL);
  return (gchar **)g_ptr_array_free(accounts, FALSE);
}

#endif
