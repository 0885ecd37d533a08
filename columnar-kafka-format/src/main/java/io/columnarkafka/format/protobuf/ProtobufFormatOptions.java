package io.columnarkafka.format.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import java.lang.reflect.InvocationTargetException;
import java.util.Map;
import java.util.Set;

/**
 * The options of Flink's {@code protobuf} format that matter when writing, by Flink's keys without the
 * {@code protobuf.} prefix: {@code message-class-name} (required) and {@code write-null-string-literal}
 * (default empty: the string a null string element of an array or map becomes). The reading options
 * {@code ignore-parse-errors} and {@code read-default-values} are accepted and have no effect on writing.
 */
public record ProtobufFormatOptions(String messageClassName, String writeNullStringLiteral) {
    public static final String MESSAGE_CLASS_NAME = "message-class-name";
    public static final String WRITE_NULL_STRING_LITERAL = "write-null-string-literal";
    private static final Set<String> KNOWN = Set.of(
            MESSAGE_CLASS_NAME, WRITE_NULL_STRING_LITERAL, "ignore-parse-errors", "read-default-values");

    public ProtobufFormatOptions {
        if (messageClassName == null || messageClassName.isEmpty()) {
            throw new IllegalArgumentException("protobuf option '" + MESSAGE_CLASS_NAME + "' is required");
        }
        if (writeNullStringLiteral == null) {
            throw new IllegalArgumentException("protobuf option '" + WRITE_NULL_STRING_LITERAL + "' is null");
        }
    }

    /** Options from Flink's keys (without the format prefix); unknown keys are rejected. */
    public static ProtobufFormatOptions fromMap(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!KNOWN.contains(key)) {
                throw new IllegalArgumentException("unknown protobuf option '" + key + "'; known: " + KNOWN);
            }
        }
        return new ProtobufFormatOptions(
                options.get(MESSAGE_CLASS_NAME), options.getOrDefault(WRITE_NULL_STRING_LITERAL, ""));
    }

    /**
     * The descriptor of the generated message class, through its static {@code getDescriptor()}, loaded by
     * the thread's context class loader or else this class's loader (as Flink's {@code PbFormatUtils} does).
     */
    public Descriptor descriptor() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ProtobufFormatOptions.class.getClassLoader();
        }
        try {
            Class<?> message = Class.forName(messageClassName, true, loader);
            return (Descriptor) message.getMethod("getDescriptor").invoke(null);
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException | ClassCastException e) {
            throw new IllegalArgumentException(
                    "protobuf message class '" + messageClassName + "' is not a generated message class: " + e, e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(
                    "protobuf message class '" + messageClassName + "' failed to describe itself", e.getCause());
        }
    }
}
