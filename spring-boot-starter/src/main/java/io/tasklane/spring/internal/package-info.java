/**
 * The starter's machinery: auto-configurations, the Spring implementations of the worker's SPI
 * ({@code io.tasklane.worker.spi}) and the Actuator health contributor. Not an API.
 */
package io.tasklane.spring.internal;
