#ifndef APP_CKEYUTILS_SHIM_H
#define APP_CKEYUTILS_SHIM_H

// The kernel's key retention service, through libkeyutils (Debian libkeyutils-dev):
// KernelKeyringUserSessionDataStore keeps the session token in the user's persistent
// keyring, in kernel memory, when no Secret Service answers.
#include <keyutils.h>

// The process keyring, into which the persistent keyring is linked: it lives as long as the
// process, so the app leaves no link behind in the person's session or user keyring. Keys
// reached through it are "possessed", which is what reading and removing them needs.
static inline key_serial_t app_process_keyring(void) { return KEY_SPEC_PROCESS_KEYRING; }

// The current user, for keyctl_get_persistent.
static inline uid_t app_current_user(void) { return (uid_t)-1; }

#endif
