# Sourced by the scripts that run the suite (scripts/test, scripts/stress-tests): the suite
# with no shared keyring.
#
# Every end-to-end test keeps its sessions in a keyring of its own (AppRunner): in process,
# a kernel keyring it makes and ends; as the binary, a session bus and gnome-keyring-daemon
# of its own (PrivateSessionBus). So the suite runs with no session bus at all: a test that
# still reached for a shared keyring fails here, and a keyring daemon that stalls fails the
# one test that started it.
#
# The exception is the Secret Service store's own specs, which run libsecret in the test
# process, where GDBus's session bus is one for the whole process: they run apart, inside a
# private keyring of their run (scripts/with-keyring), on dbus-daemon or, with
# `--bus dbus-broker`, on dbus-broker.
secret_service_specs='SecretServiceQuestionsTests|LibsecretUserSessionDataStoreTests|onTheSecretService_'

# run_without_a_session_bus ARGS…: `swift test --skip-build ARGS…` with no session bus and a
# throwaway HOME, so that no test can reach a desktop's keyring. The tests' own buses live in
# one folder of the run (APP_TEST_BUSES, in memory where there is /dev/shm); a test process
# that crashed leaves its daemons running, so they are stopped here, found by the runtime
# folder in their environment, as scripts/with-keyring finds its own.
run_without_a_session_bus() {
  local home buses pid status=0
  home=$(mktemp -d)
  buses=$(mktemp -d -p /dev/shm app-test-buses.XXXXXX 2>/dev/null || mktemp -d)
  HOME="$home" APP_TEST_BUSES="$buses" env -u DBUS_SESSION_BUS_ADDRESS \
    swift test --skip-build "$@" || status=$?
  for pid in $(pgrep -u "$(id -u)" -x gnome-keyring-d; pgrep -u "$(id -u)" -x dbus-daemon); do
    if grep -qz "^XDG_RUNTIME_DIR=$buses/" "/proc/$pid/environ" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$home" "$buses"
  return "$status"
}

# run_the_suite [--bus dbus-broker]: the suite without the specs, then the specs in a keyring
# of their run. Fails when either part does.
run_the_suite() {
  local status=0
  run_without_a_session_bus --skip "$secret_service_specs" || status=$?
  scripts/with-keyring --private "$@" swift test --skip-build --filter "$secret_service_specs" \
    || status=$?
  return "$status"
}
