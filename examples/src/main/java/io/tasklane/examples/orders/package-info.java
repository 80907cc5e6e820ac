/** The order domain of the demo: JPA entity, transactional service and task handlers. */
package io.tasklane.examples.orders;
