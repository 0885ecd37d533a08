package io.columnarkafka.testkit.soak;

/**
 * One measurement of {@link HeapAfterGc}: {@code minutes} since the soak started, the process's name
 * (e.g. {@code taskmanager-1}), its pid (a restarted process has a new one) and the bytes in use after a full GC.
 */
public record HeapSample(double minutes, String process, long pid, long bytes) {}
