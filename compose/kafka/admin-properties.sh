#!/bin/sh
# Sourced by create-users.sh and create-acls.sh: writes the super user's client settings to $ADMIN
# (owner-only, inside the container) and waits until it can log in to the broker.
: "${ADMIN_PASSWORD:?set TASKLANE_KAFKA_ADMIN_PASSWORD (see compose/README.md)}"
umask 077
ADMIN=/tmp/tasklane-admin.properties
cat >"$ADMIN" <<END
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="$ADMIN_PASSWORD";
END
