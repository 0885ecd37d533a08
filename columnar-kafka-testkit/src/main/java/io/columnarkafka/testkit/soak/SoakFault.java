package io.columnarkafka.testkit.soak;

/**
 * One fault of a soak: {@code minutes} since the start, what was done, and the milliseconds from the fault to the
 * first committed output after it ({@code -1}: output did not resume in time).
 */
public record SoakFault(double minutes, String description, long recoveryMillis) {}
