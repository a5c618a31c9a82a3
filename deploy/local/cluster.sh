#!/usr/bin/env bash
# What the containers run, as plain processes on this machine: migrate once, then two API instances on two ports and
# two mail workers, all on one PostgreSQL and one Redis. Ctrl-C (or SIGTERM) stops them all gracefully.
#
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/identity REDIS_URL=redis://127.0.0.1:6379/0 \
#   AUTH_SECRET=$(openssl rand -base64 48) deploy/local/cluster.sh
#
# Optional: PORTS="3001 3002" (API ports), WORKERS=2, PUBLIC_URL (default http://localhost:<first port>), SMTP_URL,
# HOSTED_PAGES_ENABLED=true (every instance serves the hosted sign-in pages at /auth; built first when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."

: "${DATABASE_URL:?set DATABASE_URL (instances must share one PostgreSQL)}"
: "${REDIS_URL:?set REDIS_URL (instances must share one Redis)}"
: "${AUTH_SECRET:?set AUTH_SECRET (one secret for every instance, at least 32 characters)}"
PORTS=${PORTS:-"3001 3002"}
WORKERS=${WORKERS:-2}
read -r first _ <<<"$PORTS"
export DATABASE_URL REDIS_URL AUTH_SECRET
export PUBLIC_URL=${PUBLIC_URL:-http://localhost:$first}
export NODE_ENV=${NODE_ENV:-production} MIGRATE_ON_START=false HOST=${HOST:-127.0.0.1}

service=services/identity
[ -f "$service/dist/main.js" ] || npm run build
case "${HOSTED_PAGES_ENABLED:-false}" in
  true | 1 | yes | on | TRUE | YES | ON) [ -f hosted/dist/index.html ] || npm run build -w hosted ;;
esac
node "$service/dist/cli.js" migrate
# The Node.js flags the API runs with everywhere: those of the package's start script.
read -r -a flags <<<"$(node -p "require('./$service/package.json').scripts.start.split(/\\s+/).slice(1, -1).join(' ')")"

pids=()
stop() {
  trap - INT TERM
  echo "cluster: stopping ${#pids[@]} processes"
  kill -TERM "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop INT TERM

for port in $PORTS; do
  PORT=$port node "${flags[@]}" "$service/dist/main.js" &
  pids+=($!)
  echo "cluster: API on http://$HOST:$port/api/auth (pid $!)"
done
for i in $(seq 1 "$WORKERS"); do
  node "$service/dist/worker.js" &
  pids+=($!)
  echo "cluster: mail worker $i (pid $!)"
done
wait "${pids[@]}"
