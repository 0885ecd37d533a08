package io.columnarkafka.flink.internals;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Private fields and methods of one Flink class that have no public accessor, looked up, type-checked and made
 * accessible once ({@link #probe}), so a caller decides before it builds anything whether this Flink keeps them
 * where the version it was written for does ({@link #unreadable}); reading them afterwards cannot fail on their
 * account. Holders keep one probe per class in a static field: once per JVM.
 */
public final class PrivateMembers {
    private final Class<?> owner;
    private final Map<String, Field> fields;
    private final Map<String, Method> methods;
    private final String unreadable;

    private PrivateMembers(Class<?> owner, Map<String, Field> fields, Map<String, Method> methods, String unreadable) {
        this.owner = owner;
        this.fields = fields;
        this.methods = methods;
        this.unreadable = unreadable;
    }

    /** Starts the description of {@code owner}'s members to probe. */
    public static Builder of(Class<?> owner) {
        return new Builder(owner);
    }

    /** Empty when every member was found with its type and made accessible; else the first that was not, and why. */
    public Optional<String> unreadable() {
        return Optional.ofNullable(unreadable);
    }

    /** The value of field {@code name} of {@code target}; only after a probe that found every member. */
    public <T> T read(Object target, String name, Class<T> type) {
        try {
            return type.cast(found(fields, name).get(target));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("accessible since the probe: " + owner.getName() + "." + name, e);
        }
    }

    /**
     * The result of method {@code name} on {@code target}; only after a probe that found every member. An
     * exception the method throws is rethrown as is when unchecked.
     */
    public <T> T invoke(Object target, String name, Class<T> type, Object... arguments) {
        try {
            return type.cast(found(methods, name).invoke(target, arguments));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(owner.getName() + "." + name + " failed", e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("accessible since the probe: " + owner.getName() + "." + name, e);
        }
    }

    private <M> M found(Map<String, M> members, String name) {
        if (unreadable != null) {
            throw new IllegalStateException("read after a failed probe (the caller checks unreadable()): " + unreadable);
        }
        M member = members.get(name);
        if (member == null) {
            throw new IllegalArgumentException(owner.getName() + "." + name + " was not probed");
        }
        return member;
    }

    /** The members to probe: fields with their types, methods with their return and parameter types. */
    public static final class Builder {
        private final Class<?> owner;
        private final Map<String, Field> fields = new HashMap<>();
        private final Map<String, Method> methods = new HashMap<>();
        private String unreadable;

        private Builder(Class<?> owner) {
            this.owner = owner;
        }

        /** A field {@code name} whose declared type is a {@code type} (or a subtype). */
        public Builder field(String name, Class<?> type) {
            if (unreadable == null) {
                try {
                    Field field = owner.getDeclaredField(name);
                    unreadable = mismatch(name, field.getType(), type);
                    if (unreadable == null) {
                        unreadable = accessible(field, name);
                        fields.put(name, field);
                    }
                } catch (NoSuchFieldException e) {
                    unreadable = owner.getName() + " has no field " + name;
                } catch (RuntimeException e) { // a security manager, a class that fails to link its field types
                    unreadable = owner.getName() + "." + name + ": " + e;
                }
            }
            return this;
        }

        /** A method {@code name} of {@code parameters} that returns a {@code returns} (or a subtype). */
        public Builder method(String name, Class<?> returns, Class<?>... parameters) {
            if (unreadable == null) {
                try {
                    Method method = owner.getDeclaredMethod(name, parameters);
                    unreadable = mismatch(name, method.getReturnType(), returns);
                    if (unreadable == null) {
                        unreadable = accessible(method, name);
                        methods.put(name, method);
                    }
                } catch (NoSuchMethodException e) {
                    unreadable = owner.getName() + " has no method " + name + Arrays.stream(parameters)
                            .map(Class::getSimpleName).toList().toString().replace('[', '(').replace(']', ')');
                } catch (RuntimeException e) {
                    unreadable = owner.getName() + "." + name + ": " + e;
                }
            }
            return this;
        }

        public PrivateMembers probe() {
            return new PrivateMembers(owner, Map.copyOf(fields), Map.copyOf(methods), unreadable);
        }

        private String mismatch(String name, Class<?> actual, Class<?> expected) {
            return expected.isAssignableFrom(actual) ? null
                    : owner.getName() + "." + name + " is a " + actual.getName() + ", not a " + expected.getName();
        }

        private String accessible(AccessibleObject member, String name) {
            return member.trySetAccessible() ? null
                    : owner.getName() + "." + name + " cannot be made accessible (its module does not open "
                            + owner.getPackageName() + ")";
        }
    }
}
