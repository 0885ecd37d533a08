package io.columnarkafka.cli;

/** A command line the command cannot run: a missing or unknown argument, an unreadable input. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
