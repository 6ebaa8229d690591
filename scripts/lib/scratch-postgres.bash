# A throwaway PostgreSQL cluster in a folder of its own, for the scripts that run `app serve`
# on PostgreSQL. Source this file, then:
#
#   start_scratch_postgres DIR [SETTING...]
#                                   initdb and start a cluster in DIR/pg (listening on a unix
#                                   socket in DIR only), with each SETTING as a `-c`
#                                   (`shared_preload_libraries=pg_stat_statements`), make the
#                                   database `app`, and set scratch_postgres_url to its URL;
#                                   scratch_postgres_bin is the folder of psql and the rest
#   stop_scratch_postgres           stop it (safe to call when none was started)
#
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user, in a
# folder it owns.

scratch_postgres_dir=""
scratch_postgres_url=""
scratch_postgres_as=()
scratch_postgres_bin=""

start_scratch_postgres() {
  scratch_postgres_dir=$1
  shift
  local settings="-c max_connections=100"
  for setting in "$@"; do settings+=" -c $setting"; done
  scratch_postgres_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres "$scratch_postgres_dir"
    scratch_postgres_as=(runuser -u postgres --)
  fi
  "${scratch_postgres_as[@]}" "$scratch_postgres_bin/initdb" -D "$scratch_postgres_dir/pg" \
    -U postgres -A trust --no-locale -E UTF8 >/dev/null
  "${scratch_postgres_as[@]}" "$scratch_postgres_bin/pg_ctl" -D "$scratch_postgres_dir/pg" \
    -l "$scratch_postgres_dir/pg.log" -w \
    -o "-k $scratch_postgres_dir -c listen_addresses='' $settings" start >/dev/null
  "$scratch_postgres_bin/createdb" -h "$scratch_postgres_dir" -U postgres app
  scratch_postgres_url="postgres://postgres@/app?host=$scratch_postgres_dir"
}

stop_scratch_postgres() {
  [ -n "$scratch_postgres_dir" ] || return 0
  "${scratch_postgres_as[@]}" "$scratch_postgres_bin/pg_ctl" -D "$scratch_postgres_dir/pg" \
    -m fast stop >/dev/null 2>&1 || true
  scratch_postgres_dir=""
}
