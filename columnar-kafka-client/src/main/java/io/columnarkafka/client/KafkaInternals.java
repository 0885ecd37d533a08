package io.columnarkafka.client;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Reads and sets the producer id and epoch of a transactional {@link KafkaProducer} through kafka-clients
 * 4.2 internals, so a prepared transaction can be committed or aborted by a new producer in another process.
 * Kafka has no public API for this before two-phase commit (KIP-939); Flink's Kafka connector resumes
 * transactions the same way ({@code FlinkKafkaInternalProducer.resumeTransaction}): walk the transaction
 * manager from uninitialized through initializing (clearing its partition map, setting the producer id and
 * epoch) and ready to in-transaction, and mark the transaction started so that commit and abort send
 * {@code EndTxn} to the coordinator. Additionally the transaction protocol version (KIP-890, "TV2") is set
 * as the original producer used it, so the resumed producer ends the transaction the way it was started.
 *
 * <p>Every reflective step fails with an error naming kafka-clients, so an upgrade that moves these
 * internals is caught by the exactly-once tests, not in production.
 */
final class KafkaInternals {
    private static final String STATE_ENUM = "org.apache.kafka.clients.producer.internals.TransactionManager$State";

    private KafkaInternals() {}

    /** The producer id and epoch of {@code producer}'s current transaction, and whether it runs TV2. */
    static EpochDescriptor describe(KafkaProducer<?, ?> producer, long epoch, String transactionalId, long records) {
        Object manager = transactionManager(producer);
        Object idAndEpoch = get(manager, "producerIdAndEpoch");
        return new EpochDescriptor(epoch, transactionalId, (long) get(idAndEpoch, "producerId"),
                (short) get(idAndEpoch, "epoch"), (boolean) get(manager, "isTransactionV2Enabled"), records);
    }

    /**
     * Makes {@code producer} (created with the descriptor's transactional id, {@code initTransactions} not
     * called) the owner of the descriptor's open transaction, ready for {@code commitTransaction} or
     * {@code abortTransaction}.
     */
    static void resume(KafkaProducer<?, ?> producer, EpochDescriptor descriptor) {
        Object manager = transactionManager(producer);
        synchronized (manager) {
            transition(manager, "INITIALIZING");
            invoke(get(manager, "txnPartitionMap"), "reset");
            set(manager, "producerIdAndEpoch", producerIdAndEpoch(manager, descriptor));
            transition(manager, "READY");
            transition(manager, "IN_TRANSACTION");
            set(manager, "transactionStarted", true);
            set(manager, "isTransactionV2Enabled", descriptor.transactionV2());
        }
    }

    private static Object transactionManager(KafkaProducer<?, ?> producer) {
        Object manager = get(producer, KafkaProducer.class, "transactionManager");
        if (manager == null) {
            throw new IllegalStateException("the producer is not transactional");
        }
        return manager;
    }

    private static Object producerIdAndEpoch(Object manager, EpochDescriptor descriptor) {
        try {
            Class<?> type = field(manager.getClass(), "producerIdAndEpoch").getType();
            Constructor<?> constructor = type.getDeclaredConstructor(long.class, short.class);
            constructor.setAccessible(true);
            return constructor.newInstance(descriptor.producerId(), descriptor.producerEpoch());
        } catch (ReflectiveOperationException e) {
            throw incompatible("ProducerIdAndEpoch(long, short)", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void transition(Object manager, String state) {
        try {
            Class<Enum> states = (Class<Enum>) Class.forName(STATE_ENUM, false, manager.getClass().getClassLoader());
            Method method = manager.getClass().getDeclaredMethod("transitionTo", states);
            method.setAccessible(true);
            method.invoke(manager, Enum.valueOf(states, state));
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw new IllegalStateException("kafka-clients refused the transaction state " + state, e.getCause());
        } catch (ReflectiveOperationException e) {
            throw incompatible("TransactionManager.transitionTo(" + state + ")", e);
        }
    }

    private static void invoke(Object target, String name) {
        try {
            Method method = target.getClass().getDeclaredMethod(name);
            method.setAccessible(true);
            method.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw incompatible(target.getClass().getSimpleName() + "." + name + "()", e);
        }
    }

    private static Object get(Object target, String name) {
        return get(target, target.getClass(), name);
    }

    private static Object get(Object target, Class<?> type, String name) {
        try {
            return field(type, name).get(target);
        } catch (ReflectiveOperationException e) {
            throw incompatible(type.getSimpleName() + "." + name, e);
        }
    }

    private static void set(Object target, String name, Object value) {
        try {
            field(target.getClass(), name).set(target, value);
        } catch (ReflectiveOperationException e) {
            throw incompatible(target.getClass().getSimpleName() + "." + name, e);
        }
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }

    private static IllegalStateException incompatible(String member, Exception cause) {
        return new IllegalStateException("this kafka-clients version has no " + member
                + "; resuming transactions needs kafka-clients 4.2 internals", cause);
    }
}
