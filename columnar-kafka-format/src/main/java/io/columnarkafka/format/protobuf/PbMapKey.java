package io.columnarkafka.format.protobuf;

import io.columnarkafka.format.HashMapOrder;

/** A writer that can be a map key: hashed and compared as the Java key Flink puts in its HashMap. */
interface PbMapKey extends HashMapOrder.Keys {
    /** The key as Flink's HashMap holds it (a null key is the type's default), for the reference path. */
    Object javaKey(int entry);
}
