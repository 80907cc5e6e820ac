package io.tasklane.bench;
