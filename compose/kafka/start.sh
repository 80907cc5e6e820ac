#!/bin/sh
# The compose broker's entrypoint (apache/kafka image): formats the storage once, creating the
# SCRAM-SHA-512 super user admin with $ADMIN_PASSWORD, and starts Kafka with server.properties plus
# admin's JAAS line for the inter-broker listener. The generated file stays inside the container.
set -eu
: "${ADMIN_PASSWORD:?set TASKLANE_KAFKA_ADMIN_PASSWORD (see compose/README.md)}"
umask 077
CONFIG=/tmp/tasklane-server.properties
cp /etc/tasklane/kafka/server.properties "$CONFIG"
printf '%s\n' "listener.name.sasl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$ADMIN_PASSWORD\";" >>"$CONFIG"
/opt/kafka/bin/kafka-storage.sh format --ignore-formatted --config "$CONFIG" \
  --cluster-id "$(/opt/kafka/bin/kafka-storage.sh random-uuid)" \
  --add-scram "SCRAM-SHA-512=[name=admin,password=$ADMIN_PASSWORD]"
exec /opt/kafka/bin/kafka-server-start.sh "$CONFIG"
