# The yardstick of the point-operation benchmarks: nginx serving a static 1 KB file on
# loopback. Sourced (POSIX sh) by the bench/*.sh drivers after lib/driver.sh, with HERE set
# to bench/; bench/compare/compare.mjs writes its configuration through nginx_conf too.
#
#   nginx_prepare DIR              NGX=DIR holding www/1k.txt (1,024 bytes) and nginx's
#                                  temporary directories; NGX_PORT a free loopback port.
#                                  DIR's parent is made world-readable too: it must be the
#                                  run's own directory (never /tmp itself)
#   nginx_conf FILE DIRECTIVES     FILE: serve $NGX/www on 127.0.0.1:$NGX_PORT, with the
#                                  sendfile/cache DIRECTIVES of one of the baselines below
#   nginx_start CONF               start nginx with CONF (NGINX_PID), wait until it answers
#
# The two baselines. NGINX_DEBIAN is nginx's defaults but for sendfile on, as Debian's own
# nginx.conf sets it (the baseline of every figure in bench/README.md up to 2026-12-06).
# NGINX_TUNED is tuned for a small file, as a yardstick should be: the file read into the
# response (sendfile off: a 1 KB body goes out with its head in one send) and kept open (no
# open/fstat/close per request); it served 1 KB up to twice as fast on some machines
# (bench/README.md, stop 41), so it is the stricter bar.
NGINX_DEBIAN="sendfile on;"
NGINX_TUNED="sendfile off; open_file_cache max=100;"

nginx_prepare() {
  NGX=$1
  mkdir -p "$NGX/www" "$NGX/tmp"
  awk 'BEGIN { s = ""; for (i = 0; i < 1024; i++) s = s "x"; printf "%s", s }' >"$NGX/www/1k.txt"
  # nginx's workers run as another user when started as root: they must reach the file.
  chmod 755 "$(dirname "$NGX")" "$NGX" "$NGX/www"
  chmod 644 "$NGX/www/1k.txt"
  NGX_PORT=$(node "$HERE/lib/cosmos_bench.mjs" free-port)
}

# Keep-alive connections are never closed (keepalive_requests), as Orrery keeps them.
nginx_conf() {
  cat >"$1" <<EOF
daemon off;
worker_processes auto;
pid $NGX/nginx.pid;
error_log $NGX/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  $2
  keepalive_requests 1000000;
  client_body_temp_path $NGX/tmp/body;
  proxy_temp_path $NGX/tmp/proxy;
  fastcgi_temp_path $NGX/tmp/fastcgi;
  uwsgi_temp_path $NGX/tmp/uwsgi;
  scgi_temp_path $NGX/tmp/scgi;
  default_type text/plain;
  server { listen 127.0.0.1:$NGX_PORT; root $NGX/www; }
}
EOF
}

nginx_start() {
  nginx -p "$NGX" -c "$1" -e "$NGX/error.log" >"$NGX/stdout" 2>&1 &
  NGINX_PID=$!
  i=0
  until curl -fsS -o /dev/null "http://127.0.0.1:$NGX_PORT/1k.txt" 2>/dev/null; do
    kill -0 "$NGINX_PID" 2>/dev/null ||
      die "nginx did not start: $(cat "$NGX/stdout" "$NGX/error.log" 2>/dev/null | tail -5)"
    [ "$i" -lt 100 ] || die "nginx did not answer within 5 s"
    sleep 0.05
    i=$((i + 1))
  done
}
