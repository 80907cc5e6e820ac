#!/bin/sh
# Service kafka-users (apache/kafka image, runs once): creates each Tasklane app's SCRAM-SHA-512
# user on the compose broker, logged in as the super user admin. Every password comes from the
# environment; compose refuses to start without them.
set -eu
: "${RELAY_PASSWORD:?set TASKLANE_KAFKA_RELAY_PASSWORD (see compose/README.md)}"
: "${SCHEDULER_PASSWORD:?set TASKLANE_KAFKA_SCHEDULER_PASSWORD (see compose/README.md)}"
: "${WORKER_PASSWORD:?set TASKLANE_KAFKA_WORKER_PASSWORD (see compose/README.md)}"
. /etc/tasklane/kafka/admin-properties.sh
tries=0
until /opt/kafka/bin/kafka-broker-api-versions.sh --bootstrap-server kafka:9092 \
  --command-config "$ADMIN" >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 90 ]; then
    echo "kafka-users: the broker kafka:9092 did not accept admin's login within 3 minutes" >&2
    exit 1
  fi
  sleep 2
done
user() {
  /opt/kafka/bin/kafka-configs.sh --bootstrap-server kafka:9092 --command-config "$ADMIN" \
    --alter --entity-type users --entity-name "$1" --add-config "SCRAM-SHA-512=[password=$2]"
}
user relay "$RELAY_PASSWORD"
user scheduler "$SCHEDULER_PASSWORD"
user worker "$WORKER_PASSWORD"
