#!/bin/sh
# Service kafka-acls (the scheduler image, runs once after kafka-users): grants each app's
# principal exactly the ACLs of docs/security.md with bin/kafka-acls-tasklane's class
# (io.tasklane.core.AclTool), logged in as the super user admin. The names are the apps' defaults
# in compose: namespace tasklane, relay name tasklane_relay_<database>, the scheduler's and the
# worker's <namespace>-scheduler / <namespace>-worker; --handlers lists every handler the example
# worker registers (chaos: ComposeSecurityTest checks it).
set -eu
. /etc/tasklane/kafka/admin-properties.sh
acl() {
  java -cp "/opt/tasklane/app.jar:/opt/tasklane/lib/*" io.tasklane.core.AclTool "$@" \
    --bootstrap-servers kafka:9092 --command-config "$ADMIN"
}
acl --role relay --principal User:relay --namespace tasklane --name tasklane_relay_shop
acl --role scheduler --principal User:scheduler --namespace tasklane --name tasklane-scheduler
acl --role worker --principal User:worker --namespace tasklane --name tasklane-worker --handlers audit.late,batch.report,coupon.grant,email.send,invoice.render,order.cancel-unpaid,order.event,partner.notify,pipeline.step,reminder.send,report.broken,schedule.child,schedule.shard,schedule.sweep,tasklane.method
