package io.columnarkafka.planner.translate;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;

/**
 * Keeps Flink's sub-plan reuse (which merges nodes by digest after the optimizer) from merging two columnar
 * nodes whose batches have one consumer: a columnar calc's output batch goes to one consumer, which frees it,
 * so a merged calc feeding two consumers would hand the second freed memory. (A columnar scan lends its
 * batches and is merged as Flink merges scans; it carries a barrier only where source reuse is off.) Each such
 * node adds a term of its own to its digest, at the digest's detail level only, so EXPLAIN does not show it.
 */
final class ReuseBarrier {
    private static final AtomicLong NEXT = new AtomicLong();

    private final long id = NEXT.incrementAndGet();

    RelWriter writeTo(RelWriter pw) {
        return pw.itemIf("reuseBarrier", id, pw.getDetailLevel() == SqlExplainLevel.DIGEST_ATTRIBUTES);
    }
}
