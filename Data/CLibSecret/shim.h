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

static inline SecretSearchFlags app_search_all_unlocking(void) {
  return SECRET_SEARCH_ALL | SECRET_SEARCH_UNLOCK;
}

#endif
